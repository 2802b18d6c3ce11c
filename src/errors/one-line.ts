/** Longest message body we keep; long server messages stay readable in logs and UIs. @internal */
export const MAX_MESSAGE_LENGTH = 300;

// Whitespace plus C0/C1 control characters: a message must never break a log line.
// eslint-disable-next-line no-control-regex
const BREAKING = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * Collapses all whitespace and control characters to single spaces, trims, and caps the
 * result at `max` characters with a trailing ellipsis.
 *
 * @example
 * toOneLine('  first\n  second  '); // 'first second'
 * @internal
 */
export function toOneLine(text: string, max: number = MAX_MESSAGE_LENGTH): string {
  const flat = text.replace(BREAKING, ' ').trim();
  if (flat.length <= max) return flat;
  let end = Math.max(0, max - 1);
  // Cutting between the halves of a surrogate pair would leave a broken character.
  const last = flat.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${flat.slice(0, end).trimEnd()}…`;
}
