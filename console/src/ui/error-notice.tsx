/** Errors in words: the error's message, and for sitekit errors their code, status and request id. */
import { isSiteKitError, isValidationError } from 'sitekit-sdk';

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

/** The `errorCode` of a FAILURE sign-in outcome carried as an error's details. */
function reasonOf(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const errorCode = (details as { errorCode?: unknown }).errorCode;
  return typeof errorCode === 'string' ? errorCode : undefined;
}

/** Turns anything thrown into words, keeping what a sitekit error says about itself. */
export function describeError(error: unknown): DescribedError {
  if (isSiteKitError(error)) {
    // The message ends with " (request id: …)" when the id is known; it is shown on its own line.
    const suffix = error.requestId ? ` (request id: ${error.requestId})` : '';
    const message = suffix && error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
    return {
      message,
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
