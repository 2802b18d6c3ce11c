/** What the site shows for the sign-in outcomes that are neither success nor failure. */
import { asksForCaptcha } from './credential-fields.js';

/** Words for the states a login or registration can stop in. */
export function OutcomeNotice({ loginState }: { loginState: string | null }) {
  if (loginState === 'OWNER_APPROVAL_REQUIRED') {
    return (
      <div className="notice notice-info" role="status">
        <strong>Waiting for the site owner’s approval</strong>
        <span>Approve the member in Admin → Members, then sign in.</span>
      </div>
    );
  }
  if (asksForCaptcha(loginState)) {
    return (
      <div className="notice notice-info" role="status">
        <strong>A captcha is required</strong>
        <span>The emulator's captcha switch is on (Admin → Config): enter a captcha test token and try again.</span>
      </div>
    );
  }
  return null;
}
