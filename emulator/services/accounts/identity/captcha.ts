/**
 * The captcha switch. No captcha service is reachable offline, so the emulator accepts one
 * documented test token and refuses every other one, with the platform's codes.
 */
import { applicationError } from '../../../errors.js';
import type { EmulatorContext } from '../../../service.js';

/** The captcha token the emulator accepts while captcha is required. */
export const CAPTCHA_PASSING_TOKEN = 'sitekit-captcha-pass';
/** A captcha token the emulator always refuses (any token but the passing one is refused). */
export const CAPTCHA_FAILING_TOKEN = 'sitekit-captcha-fail';

/** Code of a login or registration without a captcha token while one is required. */
export const MISSING_CAPTCHA = '-19971';
/** Code of a login or registration whose captcha token is not valid. */
export const INVALID_CAPTCHA = '-19970';

/** The tokens of `captchaTokens: [{Recaptcha}] | [{InvisibleRecaptcha}]`. */
function tokensOf(captchaTokens: unknown): string[] {
  if (!Array.isArray(captchaTokens)) return [];
  return captchaTokens
    .flatMap((entry) => (entry && typeof entry == 'object' ? Object.values(entry as Record<string, unknown>) : []))
    .filter((token): token is string => typeof token == 'string' && token != '');
}

/** Refuses the request when captcha is required and its tokens do not pass. */
export function checkCaptcha(context: EmulatorContext, captchaTokens: unknown): void {
  if (!context.config.get<boolean>('captchaRequired')) return;
  const tokens = tokensOf(captchaTokens);
  if (!tokens.length) throw applicationError(400, MISSING_CAPTCHA, 'A captcha token is required');
  if (!tokens.includes(CAPTCHA_PASSING_TOKEN))
    throw applicationError(400, INVALID_CAPTCHA, 'The captcha token is not valid');
}
