/**
 * The headers of every response that carries a user's file. Files are served from the emulator's
 * own origin, where the API key and the control API live (the platform serves them from a separate
 * static host): none may run script there. So the browser never guesses a type (`nosniff`), every
 * file answer is a sandboxed document without script (CSP), and the types a browser would run as a
 * page (HTML, SVG, XML...) are always downloaded, never shown.
 */
import type { FastifyReply } from 'fastify';

/**
 * No script, no plugins, nothing fetched but the file's own images, media and inline styles; the
 * `sandbox` directive also gives the document an opaque origin, so even a script that ran could not
 * read the emulator's.
 */
export const USER_FILE_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

/** Types a browser renders as a document that can run script, by their essence (`type/subtype`, lower case). */
const ACTIVE_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/xslt+xml',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'text/ecmascript',
  'multipart/x-mixed-replace',
]);

/**
 * A media type as a header may carry it: `type/subtype` of token characters, then parameters
 * without control characters. A stored type that is not one (written before writes were checked)
 * is served as bytes rather than failing every read of the file with a 500.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;[^\u0000-\u001f\u007f]*)?$/;

/** `Text/HTML; charset=utf-8` → `text/html`. */
const essenceOf = (mimeType: string): string => mimeType.split(';')[0]!.trim().toLowerCase();

/** Whether a file of this type must be downloaded rather than shown: a document type that may run script (any `+xml` too). */
export function isActiveType(mimeType: string): boolean {
  const essence = essenceOf(mimeType);
  return ACTIVE_TYPES.has(essence) || essence.endsWith('+xml') || essence.endsWith('/xml');
}

/**
 * Sets the headers of a user file's answer: its type (bytes when the stored one cannot be a header),
 * the disposition asked for (forced to `attachment` for active types), `nosniff` and the sandboxing CSP.
 */
export function setUserFileHeaders(
  reply: FastifyReply,
  mimeType: string,
  disposition: 'ATTACHMENT' | 'INLINE',
  fileName: string,
): FastifyReply {
  const type = MEDIA_TYPE.test(mimeType) ? mimeType : 'application/octet-stream';
  const shown = disposition == 'INLINE' && !isActiveType(type) && type != 'application/octet-stream';
  return reply
    .type(type)
    .header(
      'content-disposition',
      `${shown ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    )
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', USER_FILE_CSP);
}
