/**
 * Where an expired download URL may send the browser (`expirationRedirectUrl`): an absolute
 * http(s) URL, nothing else. A `javascript:` or `data:` target would run in the emulator's origin's
 * navigation, and a control character would split the `Location` header.
 */
import { invalidField } from '../../errors.js';

/** Control characters (C0, DEL, C1) and whitespace, none of which a URL may carry as typed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/;

/** Whether `target` is an absolute http(s) URL without control characters or spaces. */
export function isRedirectTarget(target: string): boolean {
  if (CONTROL_OR_SPACE.test(target) || !URL.canParse(target)) return false;
  const { protocol } = new URL(target);
  return protocol == 'http:' || protocol == 'https:';
}

/** `target` when it is a redirect target, else a 400 naming `field`. */
export function requireRedirectTarget(target: string, field: string): string {
  if (!isRedirectTarget(target))
    throw invalidField(field, 'must be an absolute http(s) URL without spaces or control characters', 'FORMAT');
  return target;
}
