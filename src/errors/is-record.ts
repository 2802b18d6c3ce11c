/**
 * True for a non-null, non-array object; used to read parsed JSON without trusting its shape.
 * @internal
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
