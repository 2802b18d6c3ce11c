import { SiteKitError, type ErrorContext } from './site-kit-error.js';

/**
 * Why a domain event was refused:
 * - `INVALID_SIGNATURE`: not a JWT, signed with another key, altered, or signed with an algorithm other than RS256;
 * - `EXPIRED`: the token's `exp` has passed;
 * - `UNEXPECTED_EVENT`: an event type this SDK does not know, or one missing from `expectedEvents`;
 * - `MALFORMED_EVENT`: verified, but the payload is not the documented envelope (a JSON string that does not parse, a missing field);
 * - `NO_PUBLIC_KEY`: `createClient({webhooks: {publicKey}})` was not given a usable SPKI PEM key.
 */
export type WebhookErrorCode =
  | 'INVALID_SIGNATURE'
  | 'EXPIRED'
  | 'UNEXPECTED_EVENT'
  | 'MALFORMED_EVENT'
  | 'NO_PUBLIC_KEY';

/** Each code in words, for the message. */
const CODE_IN_WORDS: Readonly<Record<WebhookErrorCode, string>> = {
  INVALID_SIGNATURE: 'invalid signature',
  EXPIRED: 'expired',
  UNEXPECTED_EVENT: 'unexpected event',
  MALFORMED_EVENT: 'malformed event',
  NO_PUBLIC_KEY: 'no public key',
};

/**
 * A domain event that `client.webhooks.process` refused: the event itself is at fault, so
 * answer the provider with a 4xx and do not ask for a retry. No handler has run.
 * Errors thrown by your own handlers are never wrapped in a WebhookError.
 *
 * @example
 * try {
 *   await client.webhooks.process(body);
 * } catch (e) {
 *   if (isWebhookError(e)) return res.status(e.code === 'NO_PUBLIC_KEY' ? 500 : 401).end();
 *   throw e; // a handler failed
 * }
 */
export class WebhookError extends SiteKitError {
  override name = 'WebhookError';
  // `declare`: only narrows the type of the base class's field, which its constructor sets (a
  // field declared here would be initialised again, to undefined, after super()).
  declare readonly code: WebhookErrorCode;

  /** The message is `webhooks: <code in words>`, plus ` (<detail>)` when given. */
  constructor(code: WebhookErrorCode, detail?: string, init: ErrorContext = {}) {
    super(`webhooks: ${CODE_IN_WORDS[code]}${detail ? ` (${detail})` : ''}`, { ...init, code });
  }
}
