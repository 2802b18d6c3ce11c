/**
 * The request and response bodies of the request log: kept by reference when a request is
 * answered (no copy, no parsing: the log stays cheap), and turned into text with every secret
 * redacted only when the log is read. Bodies that are not text (uploads, downloads) or are large are
 * described, not kept.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_VALUE_DEPTH } from '../untrusted-json.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's payload as it was sent (see {@link keepResponsePayload}). */
    responsePayload?: unknown;
  }
}

/** Bodies longer than this are not kept (the log holds a thousand entries). */
const MAX_KEPT_CHARACTERS = 32 * 1024;

/** What the log shows instead of a body it does not keep: why not. */
export class BodyNote {
  constructor(readonly text: string) {}
}

/**
 * What the log keeps of one body: the body itself (a parsed JSON body or a text), with no object
 * of its own per request (the log holds a thousand, which young-generation collections copy), or
 * a {@link BodyNote}.
 */
export type KeptBody = BodyNote | object | string;

/**
 * An `onSend` hook: keeps a reference to the payload on the request, for the log. In the callback
 * form, as it runs for every answer: an async hook would cost each a promise and a microtask.
 */
export function keepResponsePayload(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  request.responsePayload = payload;
  done(null, payload);
}

/**
 * What the log keeps of a body (nothing for an empty one). `byteLength`, the request's
 * Content-Length when known: a parsed body that large would be written out past the limit anyway
 * (3 bytes at most per character, and the log writes it indented), so it is not held until then: a
 * thousand bulk writes held by reference were most of the emulator's memory after them.
 */
export function keepBody(body: unknown, byteLength?: number): KeptBody | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  if (typeof body == 'string')
    return body.length <= MAX_KEPT_CHARACTERS ? body : new BodyNote(`(${body.length} characters, not kept)`);
  if (body instanceof Uint8Array) return new BodyNote(`(${body.byteLength} bytes of binary data, not kept)`);
  if (typeof body == 'object' && typeof (body as { pipe?: unknown }).pipe == 'function')
    return new BodyNote('(a stream: a file or download, not kept)');
  if (byteLength !== undefined && byteLength > 3 * MAX_KEPT_CHARACTERS)
    return new BodyNote(`(${byteLength} bytes, not kept)`);
  // A parsed JSON body: kept as it is, written out (and checked for size) only when read.
  if (typeof body == 'object') return body;
  // A number or a boolean (a JSON body of one value): a string of it.
  return String(body);
}

/** Keys whose values are secrets: tokens, passwords, keys. */
const SECRET_KEY = /token|password|secret|passphrase|apikey|api_key|authorization|cookie|verifier|captcha/i;
/**
 * A `code` is a secret when it is an emailed verification code (digits); an error's `code`
 * (`WDE0073`, `INVALID_VERIFICATION_CODE`, `-19976`) is what the log is read for.
 */
const isVerificationCode = (key: string, value: string): boolean => key == 'code' && /^\d{4,8}$/.test(value);
/**
 * Values that are secrets whatever their key: JWTs (access tokens), and the emulator's own secrets
 * and refresh tokens (`<purpose>.<43 base64url characters>`).
 */
const SECRET_VALUE = /^(eyJ[\w-]+\.[\w-]+\.[\w-]*|[a-z-]+\.[\w-]{40,})$/;
const REDACTED = '[redacted]';

/**
 * How deep the log writes a body out. A body may nest far deeper than the services accept (they
 * refuse it with a 400, but it is logged): walked recursively, 40,000 levels overflowed the stack
 * and made every read of the log a 500. Deeper parts are written as a note.
 */
const MAX_WRITTEN_DEPTH = MAX_VALUE_DEPTH;

/** A copy of a JSON value with every secret replaced by `[redacted]`, and parts nested too deep by a note. */
export function redactSecrets(value: unknown, key = '', depth = 1): unknown {
  if (typeof value == 'string')
    return SECRET_KEY.test(key) || SECRET_VALUE.test(value) || isVerificationCode(key, value) ? REDACTED : value;
  if (value && typeof value == 'object' && depth > MAX_WRITTEN_DEPTH)
    return `(nested deeper than ${MAX_WRITTEN_DEPTH} levels, not kept)`;
  if (Array.isArray(value)) return value.map((element) => redactSecrets(element, key, depth + 1));
  if (value && typeof value == 'object')
    return Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [
        name,
        SECRET_KEY.test(name) && inner !== null && typeof inner != 'object'
          ? REDACTED
          : redactSecrets(inner, name, depth + 1),
      ]),
    );
  return value;
}

/**
 * A kept body as the log shows it: JSON pretty-printed with its secrets redacted; other text as it
 * is, but a form body's secrets redacted too (the hosted sign-in pages post forms).
 */
export function bodyText(kept: KeptBody | undefined): string | undefined {
  if (kept === undefined) return undefined;
  if (kept instanceof BodyNote) return kept.text;
  let value: unknown = kept;
  if (typeof value == 'string') {
    const text = value;
    try {
      value = JSON.parse(text);
    } catch {
      if (/^[\w.%-]+=/.test(text) && !text.includes(' ')) {
        const form = new URLSearchParams(text);
        return new URLSearchParams(
          [...form].map(([name, inner]) => [name, redactSecrets(inner, name) as string]),
        ).toString();
      }
      return text;
    }
  }
  const written = JSON.stringify(redactSecrets(value), null, 2);
  return written.length <= MAX_KEPT_CHARACTERS ? written : `(${written.length} characters, not kept)`;
}
