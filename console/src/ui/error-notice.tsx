/** Errors in words: the error's message, and for sitekit errors their code, status and request id. */
import { isNetworkError, isSiteKitError, isTimeoutError, isValidationError, type SiteKitError } from 'sitekit-sdk';

/** What an error looks like on screen. */
export interface DescribedError {
  message: string;
  /** The sitekit error code (e.g. `WDE0073`, `NOT_FOUND`), when it is a sitekit error. */
  code?: string;
  status?: number;
  requestId?: string;
  /** Field violations of a validation error, as `field: description` lines. */
  violations: string[];
  /** The sign-in outcome's own reason (`invalidPassword`, `emailAlreadyExists`…), for login failures. */
  reason?: string;
}

/** What a FAILURE sign-in outcome, carried as an error's details, says about the account. */
interface LoginFailureDetails {
  errorCode?: unknown;
  identityStatus?: unknown;
}

/** The `errorCode` of a FAILURE sign-in outcome carried as an error's details. */
function reasonOf(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const errorCode = (details as LoginFailureDetails).errorCode;
  return typeof errorCode === 'string' ? errorCode : undefined;
}

/**
 * Words for an account that cannot sign in whatever the password (the outcome's `identityStatus`):
 * the spec's "Unknown _state" would tell a person nothing.
 */
const accountStatusMessages: Record<string, string> = {
  BLOCKED: 'This account is blocked. The site owner can unblock it (Admin → Members).',
  OFFLINE: 'This account is offline. The site owner can approve it again (Admin → Members).',
  PENDING: 'This account waits for the site owner’s approval (Admin → Members).',
};

function accountStatusMessage(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const status = (details as LoginFailureDetails).identityStatus;
  return typeof status === 'string' ? accountStatusMessages[status] : undefined;
}

/** The server's own words in an error body (`details.applicationError.description`, else `message`). */
function serverWords(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const body = details as { message?: unknown; details?: { applicationError?: { description?: unknown } } };
  const description = body.details?.applicationError?.description;
  if (typeof description === 'string' && description) return description;
  return typeof body.message === 'string' && body.message ? body.message : undefined;
}

/** What to say when nothing answers: where the console looked, and how to start the emulator. */
export function unreachableMessage(origin: string = window.location.origin): string {
  return `The emulator is not reachable at ${origin}. Start it with npm start (or npx sitekit-sdk emulator), then try again.`;
}

/**
 * The message a person reads: what happened in words, without the SDK's prefixes (the call's
 * name, the status line) that are for logs. The code, status and request id are shown apart.
 */
function messageOf(error: SiteKitError): string {
  // (Asked of `error as unknown`: the subclasses add no members, so a guard on `error` itself would
  // narrow what follows to `never`.)
  if (isNetworkError(error as unknown)) return unreachableMessage();
  if (isTimeoutError(error as unknown))
    return `The emulator at ${window.location.origin} did not answer in time: it may be stopped or stuck. Restart it (npm start, or npx sitekit-sdk emulator), then try again.`;
  const account = accountStatusMessage(error.details);
  if (account) return account;
  // The message ends with " (request id: …)" when the id is known; it is shown on its own line.
  const suffix = error.requestId ? ` (request id: ${error.requestId})` : '';
  let message = suffix && error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
  if (error.operation && message.startsWith(`${error.operation}: `))
    message = message.slice(error.operation.length + 2);
  if (isValidationError(error)) return message;
  const words = serverWords(error.details);
  if (words) return words;
  // Only a status line ("404 Not Found"): say it as a sentence.
  if (error.status && /^\d{3}\b/.test(message)) return `The emulator refused the request (${message}).`;
  return message;
}

/** Turns anything thrown into words, keeping what a sitekit error says about itself. */
export function describeError(error: unknown): DescribedError {
  if (isSiteKitError(error)) {
    return {
      message: messageOf(error),
      code: error.code,
      status: error.status,
      requestId: error.requestId,
      reason: reasonOf(error.details),
      violations: isValidationError(error)
        ? error.violations.map((violation) =>
            violation.field ? `${violation.field}: ${violation.description}` : violation.description,
          )
        : [],
    };
  }
  // A plain fetch that found nothing listening (the console's own start-up read).
  if (error instanceof TypeError && /fetch|network/i.test(error.message))
    return { message: unreachableMessage(), violations: [] };
  if (error instanceof Error) return { message: error.message || error.name, violations: [] };
  return { message: String(error), violations: [] };
}

/** Props of {@link ErrorNotice}. */
export interface ErrorNoticeProps {
  error: unknown;
  /** What was being done, e.g. "Could not load the items". */
  title?: string;
}

/** An alert box with the error's message and, for sitekit errors, its code and request id. */
export function ErrorNotice({ error, title }: ErrorNoticeProps) {
  const described = describeError(error);
  const facts = [
    described.code && `Code ${described.code}`,
    described.reason,
    described.status && `HTTP ${described.status}`,
    described.requestId && `request id ${described.requestId}`,
  ].filter(Boolean);
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong>{title}</strong>}
      <span data-testid="error-message">{described.message}</span>
      {described.violations.length > 1 && (
        <ul>
          {described.violations.map((violation) => (
            <li key={violation}>{violation}</li>
          ))}
        </ul>
      )}
      {facts.length > 0 && (
        <span className="detail" data-testid="error-code">
          {facts.join(' · ')}
        </span>
      )}
    </div>
  );
}
