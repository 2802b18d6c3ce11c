/** Email, password and (when the site asks for one) a captcha token: the fields of sign-in and registration. */
import type { CaptchaTokens } from 'sitekit-sdk';

/** What the fields hold. */
export interface Credentials {
  email: string;
  password: string;
  /** A captcha token; the emulator's documented test tokens pass or fail on purpose. */
  captcha: string;
}

/** Empty fields. */
export const noCredentials: Credentials = { email: '', password: '', captcha: '' };

/** The captcha token as the SDK takes it, or nothing when none was entered. */
export function captchaTokensOf(credentials: Credentials): CaptchaTokens | undefined {
  return credentials.captcha.trim() ? { recaptcha: credentials.captcha.trim() } : undefined;
}

/** Whether a sign-in outcome asks for a captcha. */
export function asksForCaptcha(loginState: string | null): boolean {
  return loginState === 'USER_CAPTCHA_REQUIRED' || loginState === 'SILENT_CAPTCHA_REQUIRED';
}

/** Props of {@link CredentialFields}. */
export interface CredentialFieldsProps {
  value: Credentials;
  onChange(value: Credentials): void;
  /** `register` lets password managers suggest a new password. */
  purpose: 'sign-in' | 'register';
  /** Shows the captcha field (it also stays once something was typed in it). */
  askCaptcha: boolean;
}

/** The labelled inputs. */
export function CredentialFields({ value, onChange, purpose, askCaptcha }: CredentialFieldsProps) {
  return (
    <>
      <label className="field">
        Email
        <input
          type="email"
          autoComplete="email"
          value={value.email}
          onChange={(event) => onChange({ ...value, email: event.target.value })}
          required
        />
      </label>
      <label className="field">
        Password
        <input
          type="password"
          autoComplete={purpose === 'register' ? 'new-password' : 'current-password'}
          value={value.password}
          onChange={(event) => onChange({ ...value, password: event.target.value })}
          required
        />
      </label>
      {(askCaptcha || value.captcha) && (
        <label className="field">
          Captcha token
          <input value={value.captcha} onChange={(event) => onChange({ ...value, captcha: event.target.value })} />
        </label>
      )}
    </>
  );
}

/** Props of {@link NewPasswordField}. */
export interface NewPasswordFieldProps {
  value: string;
  onChange(value: string): void;
  /** Focus it when the page opens (a page that asks for nothing else). */
  autoFocus?: boolean;
}

/** The labelled new-password input of a password change or reset (password managers suggest one). */
export function NewPasswordField({ value, onChange, autoFocus }: NewPasswordFieldProps) {
  return (
    <label className="field">
      New password
      <input
        type="password"
        autoComplete="new-password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required
        minLength={4}
        autoFocus={autoFocus}
      />
    </label>
  );
}
