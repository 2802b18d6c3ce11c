/**
 * The request and response bodies of the request log: turned into text with every secret redacted
 * once, when a request is logged, by a writer that stops at the size the log keeps (so a body costs
 * at most that much work, and a read of the log only hands out texts). Bodies that are not text
 * (uploads, downloads) or are large are described, not kept.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_VALUE_DEPTH } from '../untrusted-json.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's payload as it was sent (see {@link keepResponsePayload}). */
    responsePayload?: unknown;
  }
}

/** Bodies longer than this, as the log writes them, are not kept (the log holds a thousand entries). */
const MAX_KEPT_CHARACTERS = 32 * 1024;

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

/** Keys whose values are secrets: tokens, passwords, keys. */
const SECRET_KEY = /token|password|secret|passphrase|apikey|api_key|authorization|cookie|verifier|captcha/i;
/**
 * A `code` is a secret when it is an emailed verification code (digits); an error's `code`
 * (`WDE0073`, `INVALID_VERIFICATION_CODE`, `-19976`) is what the log is read for.
 */
const isVerificationCode = (key: string, value: string): boolean => key == 'code' && /^\d{4,8}$/.test(value);
/**
 * Secrets wherever they stand, whole or inside a text (a link's query, an HTML page's script, an
 * email's text, an upload URL's path): JWTs (access tokens), and the emulator's own secrets and
 * refresh tokens (`<purpose>.<base64url>`: recovery tokens, authorization codes, session tokens,
 * 43 characters; upload tickets, 32).
 */
const EMBEDDED_SECRET = /eyJ[\w-]+\.[\w-]+\.[\w-]*|(?<![\w.-])[a-z][a-z-]*\.[\w-]{32,}/g;
/** No {@link EMBEDDED_SECRET} is shorter (a JWT of an empty header and payload is longer): shorter strings are not searched. */
const SHORTEST_EMBEDDED_SECRET = 16;
/**
 * A secret found under its key (a password, a code) is also redacted where the same body repeats
 * it (an email's text quotes its code), when it is long enough not to be any word and holds no
 * character JSON escapes.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes.
const REPEATABLE_SECRET = /^[^"\\\u0000-\u001f]{6,}$/;
const REDACTED = '[redacted]';

/** Whether a string under `key` is a secret as a whole: under a secret's key, or an emailed code. */
const isSecretValue = (key: string, value: string): boolean => SECRET_KEY.test(key) || isVerificationCode(key, value);

/** A text with every secret it holds redacted (a logged path: `/_uploads/files/<ticket>`). */
export const redactedText = (text: string): string =>
  text.length < SHORTEST_EMBEDDED_SECRET ? text : text.replace(EMBEDDED_SECRET, REDACTED);

/** A string under `key` with its secrets redacted: all of it when it is one, else every secret it holds. */
const redactedString = (value: string, key: string): string =>
  isSecretValue(key, value) ? REDACTED : redactedText(value);

/**
 * How deep the log writes a body out. A body may nest far deeper than the services accept (they
 * refuse it with a 400, but it is logged): walked recursively, 40,000 levels overflowed the stack
 * and made every read of the log a 500. Deeper parts are written as a note.
 */
const MAX_WRITTEN_DEPTH = MAX_VALUE_DEPTH;

/**
 * Writes a JSON value as `JSON.stringify(value, null, 2)` does, every secret replaced by
 * `[redacted]`, and stops as soon as the text passes its limit: the work a body costs is bounded
 * by the limit, whatever the body's size (a 16 MiB body sent without `Content-Length` used to be
 * held whole, then redacted and written out whole at every read of the log).
 */
class RedactingWriter {
  private readonly parts: string[] = [];
  private length = 0;
  /** Secrets found under their keys, to redact where the body repeats them. */
  private readonly found = new Set<string>();

  constructor(private readonly limit: number) {}

  /** The text, or undefined when it passed the limit. */
  text(value: unknown): string | undefined {
    if (!this.value(value, '', '', 1)) return undefined;
    let text = this.parts.join('');
    for (const secret of this.found) text = text.split(secret).join(REDACTED);
    return text;
  }

  /** Appends `text`; false once past the limit (the caller stops). */
  private put(text: string): boolean {
    this.parts.push(text);
    this.length += text.length;
    return this.length <= this.limit;
  }

  /** A string value under `key`, redacted; a secret it is whole is remembered, to redact where it is repeated. */
  private string(value: string, key: string): string {
    if (isSecretValue(key, value) && REPEATABLE_SECRET.test(value)) this.found.add(value);
    return redactedString(value, key);
  }

  private value(input: unknown, key: string, indent: string, depth: number): boolean {
    let value = input;
    if (value !== null && typeof value == 'object' && typeof (value as { toJSON?: unknown }).toJSON == 'function')
      value = (value as { toJSON(key: string): unknown }).toJSON(key);
    if (typeof value == 'string') {
      // A string longer than what is left ends the writing, a secret's too: measured before it is
      // redacted, a huge string is not even copied.
      if (value.length > this.limit - this.length) return false;
      return this.put(JSON.stringify(this.string(value, key)));
    }
    if (value === null || typeof value != 'object') {
      if (SECRET_KEY.test(key) && (typeof value == 'number' || typeof value == 'boolean'))
        return this.put(JSON.stringify(REDACTED));
      return this.put(typeof value == 'number' || typeof value == 'boolean' ? JSON.stringify(value) : 'null');
    }
    if (depth > MAX_WRITTEN_DEPTH)
      return this.put(JSON.stringify(`(nested deeper than ${MAX_WRITTEN_DEPTH} levels, not kept)`));
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (!value.length) return this.put('[]');
      // Stryker disable next-line BooleanLiteral: past the limit, the next put (an element or `]`) fails too.
      if (!this.put('[')) return false;
      for (let index = 0; index < value.length; index++) {
        // An array's elements stand under its key: `tokens: [...]` is a list of secrets.
        if (!this.put(`${index ? ',' : ''}\n${inner}`) || !this.value(value[index], key, inner, depth + 1))
          return false;
      }
      return this.put(`\n${indent}]`);
    }
    // Stryker disable next-line BooleanLiteral: past the limit, the next put (an entry or `}`) fails too.
    if (!this.put('{')) return false;
    let written = 0;
    for (const name of Object.keys(value)) {
      const entry = (value as Record<string, unknown>)[name];
      // What JSON.stringify leaves out of an object.
      if (entry === undefined || typeof entry == 'function' || typeof entry == 'symbol') continue;
      // Stryker disable next-line UpdateOperator: counting down (-1, -2...) is as truthy after the first entry.
      if (!this.put(`${written++ ? ',' : ''}\n${inner}${JSON.stringify(name)}: `)) return false;
      if (!this.value(entry, name, inner, depth + 1)) return false;
    }
    // `{` alone: an empty object (or one of left-out values only) is `{}`.
    return this.put(written ? `\n${indent}}` : '}');
  }
}

/** A form body (`a=1&b=2`, what the hosted sign-in pages post) with its secret values redacted. */
const redactedForm = (text: string): string =>
  new URLSearchParams(
    [...new URLSearchParams(text)].map(([name, value]) => [name, redactedString(value, name)]),
  ).toString();

/** A text body: JSON pretty-printed, a form or any other text (an HTML page) with its secrets redacted. */
function textBody(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (/^[\w.%-]+=/.test(text) && !text.includes(' ')) return redactedForm(text);
    return redactedText(text);
  }
  return writtenOut(value);
}

/** A JSON value written out, or a note when it is longer than the log keeps. */
function writtenOut(value: unknown): string {
  return (
    new RedactingWriter(MAX_KEPT_CHARACTERS).text(value) ??
    `(over ${MAX_KEPT_CHARACTERS} characters written out, not kept)`
  );
}

/**
 * What the log holds of a body, made once when the request is logged: its text (JSON
 * pretty-printed) with every secret redacted, or a note saying why it is not kept (binary,
 * streamed, or longer than 32 KiB written out); undefined for no body. `byteLength`, the request's
 * Content-Length when known, spares parsing a body that could not be kept anyway (3 bytes at most
 * per character). Whatever the body, the work is bounded by what the log keeps, and reading the
 * log only hands out the texts.
 */
export function loggedBody(body: unknown, byteLength?: number): string | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  if (typeof body == 'string')
    return body.length <= MAX_KEPT_CHARACTERS ? textBody(body) : `(${body.length} characters, not kept)`;
  if (body instanceof Uint8Array) return `(${body.byteLength} bytes of binary data, not kept)`;
  // What is left is an object, a number or a boolean: only an object (a stream) has a `pipe` method.
  if (typeof (body as { pipe?: unknown }).pipe == 'function') return '(a stream: a file or download, not kept)';
  if ((byteLength ?? 0) > 3 * MAX_KEPT_CHARACTERS) return `(${byteLength} bytes, not kept)`;
  // A parsed JSON body, or a number or a boolean (a JSON body of one value).
  return writtenOut(body);
}
