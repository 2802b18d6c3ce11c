import { isRecord } from './is-record.js';
import { toOneLine } from './one-line.js';

/**
 * One short line naming a thrown value, for messages such as "Network request failed: …".
 *
 * Follows one level of `cause` because Node's fetch reports every failure as
 * `TypeError: fetch failed` and hides the useful part (`connect ECONNREFUSED …`) there.
 * Never stringifies arbitrary objects: `[object Object]` helps nobody.
 *
 * @example
 * describeCause(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:80') }));
 * // 'TypeError: fetch failed (connect ECONNREFUSED 127.0.0.1:80)'
 * @internal
 */
export function describeCause(cause: unknown): string | undefined {
  const head = describeOne(cause);
  if (head === undefined || !isRecord(cause)) return head;
  const inner = describeOne(cause.cause, false);
  return inner === undefined || head.includes(inner) ? head : `${head} (${inner})`;
}

function describeOne(value: unknown, withName = true): string | undefined {
  let text: string | undefined;
  if (typeof value === 'string') {
    text = value;
  } else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    text = String(value);
  } else if (isRecord(value)) {
    const message = typeof value.message === 'string' ? value.message.trim() : '';
    const name = typeof value.name === 'string' ? value.name.trim() : '';
    const code = typeof value.code === 'string' ? value.code.trim() : '';
    const body = message || code;
    // "Error: " adds nothing; a specific name such as TypeError or AbortError does.
    const label = withName && name !== '' && name !== 'Error' ? name : '';
    text = label && body ? `${label}: ${body}` : label || body;
  }
  const line = text === undefined ? '' : toOneLine(text, 200);
  return line === '' ? undefined : line;
}
