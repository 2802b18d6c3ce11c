/**
 * Schema drift: a live answer the checked-in schema does not describe (a field it lacks, a
 * required field missing, a value of another type), found by the emulator's own schema validator
 * (emulator/http/schema-validator.ts) and said as what to change: the schema file and the path in
 * it. The answer's values are never quoted (they may be personal data), only their types.
 */
import { componentFiles, components, routes, type Route } from '../../generated/routes.js';
import { answerCheck, type SchemaCheck, type SchemaError } from '../../emulator/http/schema-validator.js';
import { dotted } from '../../emulator/http/violations.js';

/** One place where an answer and the schema part. */
export interface Drift {
  /** The answer's field (`dataItems.0.id`; `(answer)` for the whole). */
  field: string;
  /** What is wrong, in words. */
  problem: string;
  /** The schema file to change (`schema/data-items.yaml`). */
  file: string;
  /** Where in that file (`components.schemas.DataItem.properties.id`). */
  schemaPath: string;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** The value at a JSON pointer of the answer (for its type). */
function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const segment of pointer.split('/').filter(Boolean))
    value = value && typeof value == 'object' ? (value as Record<string, unknown>)[segment] : undefined;
  return value;
}

/** What a validator error says, without the answer's values. */
function problemOf(error: SchemaError, body: unknown): { field: string; problem: string; schemaSuffix: string } {
  const at = dotted(error.instancePath);
  const join = (name: unknown) => (at ? `${at}.${String(name)}` : String(name));
  switch (error.keyword) {
    case 'additionalProperties':
      return {
        field: join(error.params.additionalProperty),
        problem: 'is a field the schema does not declare',
        schemaSuffix: `properties.${String(error.params.additionalProperty)}`,
      };
    case 'required':
      return {
        field: join(error.params.missingProperty),
        problem: 'is required by the schema but missing',
        schemaSuffix: 'required',
      };
    case 'type':
      return {
        field: at || '(answer)',
        problem: `is ${typeOf(valueAt(body, error.instancePath))} where the schema says ${String(error.params.type)}`,
        schemaSuffix: 'type',
      };
    default:
      return {
        field: at || '(answer)',
        problem: error.message ?? `breaks the rule ${error.keyword}`,
        schemaSuffix: error.keyword,
      };
  }
}

type Schema = Record<string, unknown>;

/**
 * Where the schema describes the answer's field at `pointer`: the file and dotted path of the
 * innermost schema on the way, following `$ref`s (a component's own file) as the answer nests.
 */
function schemaLocation(route: Route, pointer: string, suffix: string): { file: string; schemaPath: string } {
  let node = route.response as Schema | undefined;
  let file = route.file;
  let path = `paths.${route.url.replace(/:([^/]+)/g, '{$1}')}.${route.method.toLowerCase()}.responses.200.content.application/json.schema`;
  const follow = () => {
    for (let depth = 0; node && typeof node.$ref == 'string' && depth < 10; depth++) {
      const name = node.$ref.split('/').pop()!;
      node = components.schemas[name] as Schema | undefined;
      file = componentFiles[name] ?? file;
      path = `components.schemas.${name}`;
    }
  };
  for (const segment of pointer.split('/').filter(Boolean)) {
    follow();
    const properties = node?.properties as Record<string, Schema> | undefined;
    if (properties && Object.hasOwn(properties, segment)) {
      node = properties[segment];
      path += `.properties.${segment}`;
    } else if (node?.items && /^\d+$/.test(segment)) {
      node = node.items as Schema;
      path += '.items';
    } else break;
  }
  follow();
  return { file, schemaPath: `${path}.${suffix}` };
}

const checks = new Map<string, SchemaCheck>();

/** The drift of one 2xx answer of `operationId` from its response schema (none when it matches). */
export function schemaDrift(operationId: string, body: unknown): Drift[] {
  const route = routes.find((candidate) => candidate.operationId == operationId);
  if (!route) return [];
  let check = checks.get(operationId);
  if (!check) checks.set(operationId, (check = answerCheck(route.response)));
  const seen = new Set<string>();
  const drift: Drift[] = [];
  for (const error of check(body)) {
    const { field, problem, schemaSuffix } = problemOf(error, body);
    const location = schemaLocation(route, error.instancePath, schemaSuffix);
    const key = `${field}\u0000${location.schemaPath}`;
    if (seen.has(key)) continue;
    seen.add(key);
    drift.push({ field, problem, ...location });
  }
  return drift;
}
