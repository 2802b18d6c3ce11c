/**
 * The one input-check rule of the SDK: a bad argument is refused before any request with a
 * `RequestError` naming the field, `<method>: <field> must be <expected>`.
 */
import { RequestError } from './errors/index.js';
import { isRecord } from './errors/util.js';

// The one object check (an object that is neither `null` nor an array), shared with errors/.
export { isRecord } from './errors/util.js';

/**
 * Throws the `RequestError` `<context>: <field> must be <expected>` (without a context,
 * `<field> must be <expected>`), e.g. `limit must be a positive integer`.
 */
export function invalid(field: string, expected: string, context?: string): never {
  throw new RequestError(`${context ? `${context}: ` : ''}${field} must be ${expected}`, { field });
}

/** `value` when it is a non-empty string, else {@link invalid}. */
export function requireString(value: unknown, field: string, context?: string): string {
  return typeof value === 'string' && value !== '' ? value : invalid(field, 'a non-empty string', context);
}

/** `value` when it is an object (not `null`, not an array), else {@link invalid}. */
export function requireObject(value: unknown, field: string, context?: string): Record<string, unknown> {
  return isRecord(value) ? value : invalid(field, 'an object', context);
}

/** An options argument: `undefined` and `null` both mean none; anything else must be an object. */
export function optionsObject(value: unknown, field: string, context?: string): Record<string, unknown> {
  return value == null ? {} : requireObject(value, field, context);
}

/** `value` when it is an array, else {@link invalid}. */
export function requireArray(value: unknown, field: string, context?: string): unknown[] {
  return Array.isArray(value) ? value : invalid(field, 'an array', context);
}
