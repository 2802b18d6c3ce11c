/**
 * Query strings carry only text: this turns the values of a parsed query string into the types
 * its schema names (numbers, booleans, arrays), as the platform does. Bodies are never coerced:
 * JSON already has types, and `5` is not `"5"`.
 */
import { isRecord } from '../untrusted-json.js';

type Schema = Record<string, unknown>;

/** Resolves `#/components/schemas/Name` (or the shared-id form) against `components`. */
function resolve(schema: unknown, components: { schemas: Record<string, unknown> }): Schema | undefined {
  let current = schema;
  for (let depth = 0; isRecord(current) && typeof current.$ref == 'string' && depth < 10; depth++) {
    const name = current.$ref.split('/').pop()!;
    current = components.schemas[name];
  }
  return isRecord(current) ? current : undefined;
}

const typesOf = (schema: Schema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type == 'string' ? [schema.type] : [];

/** One text value as the scalar type the schema wants; unchanged when it does not read as one (validation then reports it). */
function scalar(value: string, types: string[]): unknown {
  if ((types.includes('integer') || types.includes('number')) && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (types.includes('boolean') && (value == 'true' || value == 'false')) return value == 'true';
  return value;
}

/** Returns `value` with its text leaves converted to the types `schema` names. */
export function coerceQuery(
  value: unknown,
  schema: unknown,
  components: { schemas: Record<string, unknown> },
): unknown {
  const resolved = resolve(schema, components);
  if (!resolved) return value;
  const types = typesOf(resolved);
  if (types.includes('array')) {
    const list = Array.isArray(value) ? value : value === undefined ? value : [value];
    return list?.map((entry) => coerceQuery(entry, resolved.items, components));
  }
  if (isRecord(value)) {
    const properties = isRecord(resolved.properties) ? resolved.properties : {};
    const typed: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const entry = value[key];
      const coerced = Object.hasOwn(properties, key) ? coerceQuery(entry, properties[key], components) : entry;
      // An own field even for `__proto__` (an assignment would set the prototype instead).
      if (key == '__proto__') Object.defineProperty(typed, key, { value: coerced, enumerable: true, writable: true });
      else typed[key] = coerced;
    }
    return typed;
  }
  if (typeof value == 'string') return scalar(value, types);
  return value;
}
