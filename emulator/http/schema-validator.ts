/**
 * The one schema validator: Fastify's (ajv, through `@fastify/ajv-compiler`) with the emulator's
 * options. The server validates requests with it; `sitekit-sdk verify` validates a live site's
 * answers with it, so a request the emulator refuses and an answer the schema does not describe
 * are judged by the same rules.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';
import { components } from '../../generated/routes.js';
import { isRecord } from '../untrusted-json.js';

/** Fastify resolves `$ref`s against this schema id, which holds the generated `components`. */
export const SCHEMA_ID = 'sitekit';

const INT32 = 2 ** 31;

/** A plugin of Fastify's schema validator (ajv), typed from Fastify's own options. */
type ValidatorPlugin = Extract<
  NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number],
  (...args: never[]) => unknown
>;

/** Number formats the schemas use that the validator does not know by itself. */
const addNumberFormats: ValidatorPlugin = (ajv) => {
  ajv.addFormat('int32', {
    type: 'number',
    validate: (value: number) => Number.isInteger(value) && value >= -INT32 && value < INT32,
  });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  return ajv;
};

/** The validator's options (Fastify's `ajv` server option). */
export const VALIDATOR_OPTIONS = {
  // No coercion: JSON bodies keep their types (5 is not "5"); query strings are typed by `coerce.ts`.
  customOptions: {
    allErrors: true,
    strict: false,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    // Errors carry the refused value and its schema, so a refusal can name the nearest allowed names.
    verbose: true,
  },
  plugins: [addNumberFormats],
} satisfies FastifyServerOptions['ajv'];

/** Points a route schema's local `#/components/...` references at the schema registered under `schemaId`. */
export function withSharedReferences(schema: unknown, schemaId = SCHEMA_ID): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${schemaId}#/components/`));
}

/** {@link withSharedReferences} of each generated request schema, made once per process. */
const requestSchemas = new WeakMap<object, unknown>();

/**
 * A generated request schema with its references pointed at {@link SCHEMA_ID}: the same object
 * for every server of the process, so the shared validator (see {@link buildSharedValidator})
 * compiles it once, and holds one compiled copy however many emulators the process makes.
 */
export function requestSchema(schema: object): unknown {
  let shared = requestSchemas.get(schema);
  if (shared === undefined) requestSchemas.set(schema, (shared = withSharedReferences(schema)));
  return shared;
}

/** Fastify's validator builder (`schemaController.compilersFactory.buildValidator`). */
type ValidatorBuilder = ReturnType<typeof AjvCompiler>;
const buildValidator: ValidatorBuilder = AjvCompiler();
/** One validator compiler per set of external schema ids, for every server of the process. */
const sharedValidators = new Map<string, ReturnType<ValidatorBuilder>>();

/**
 * Fastify's validator builder, shared by every emulator of the process. Fastify asks each server
 * (and each plugin context that adds schemas) for a compiler, with the schemas added so far; the
 * default builder keys its pool by their JSON (the generated components: tens of ms each time)
 * and each new server compiled every control route's validator again when it got ready (285–876
 * ms of an in-process emulator's first answer here; 2–25 ms shared). The schemas the emulator
 * adds are the generated ones, the same in every server: a compiler is kept per set of schema ids.
 */
export const buildSharedValidator: ValidatorBuilder = (externalSchemas, options) => {
  const key = Object.keys(externalSchemas).sort().join('\n');
  let compiler = sharedValidators.get(key);
  if (!compiler) sharedValidators.set(key, (compiler = buildValidator(externalSchemas, options)));
  return compiler;
};

/** The parts of a validator's error that are read (ajv's `ErrorObject`; `data` and `parentSchema`: it runs `verbose`). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
  /** The refused value. */
  data?: unknown;
  /** The schema holding the failed keyword (its `properties`, for an unknown field). */
  parentSchema?: { properties?: Record<string, unknown> };
}

/** A compiled schema: whether a value passes, and why not. */
export type SchemaCheck = (value: unknown) => SchemaError[];

/** The id of the closed copy of the components that answers are checked against. */
const ANSWER_SCHEMA_ID = 'sitekit-answers';

/** An object with each value turned by `turn`. */
const mapValues = (record: Record<string, unknown>, turn: (value: unknown) => unknown): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, turn(value)]));

/**
 * A copy of a schema where every object that lists its properties and says nothing of others
 * allows no others: a field the schema does not declare is then an error. It follows the places
 * that hold schemas (properties, items, additionalProperties), not every key, so a field named
 * `properties` stays a field. Compositions (`allOf`, `oneOf`, `anyOf`) keep their parts open, as
 * closing each part would refuse the others' fields.
 */
export function closedSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const closed: Record<string, unknown> = { ...schema };
  if (isRecord(schema.properties)) {
    closed.properties = mapValues(schema.properties, closedSchema);
    if (schema.additionalProperties === undefined) closed.additionalProperties = false;
  }
  if (isRecord(schema.additionalProperties)) closed.additionalProperties = closedSchema(schema.additionalProperties);
  if (schema.items !== undefined) closed.items = closedSchema(schema.items);
  return closed;
}

/** What Fastify hands its validator compiler for one part of a route. */
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart: string;
}

/** A compiled validator, as ajv gives it. */
interface Validate {
  (value: unknown): boolean;
  errors?: unknown[] | null;
}

let answerCompiler: ((route: RouteSchema) => Validate) | undefined;

/**
 * The check of an answer against a route's response schema, closed ({@link closedSchema}): a
 * missing required field, a wrong type and an undeclared field are each an error.
 */
export function answerCheck(responseSchema: unknown): SchemaCheck {
  answerCompiler ??= AjvCompiler()(
    {
      [ANSWER_SCHEMA_ID]: {
        $id: ANSWER_SCHEMA_ID,
        components: { schemas: mapValues(components.schemas, closedSchema) },
      },
    },
    VALIDATOR_OPTIONS,
  ) as unknown as (route: RouteSchema) => Validate;
  // Called as Fastify calls it: with the route's schema and where it applies.
  const validate = answerCompiler({
    schema: closedSchema(withSharedReferences(responseSchema, ANSWER_SCHEMA_ID)),
    method: 'GET',
    url: '/',
    httpPart: 'body',
  });
  return (value) => (validate(value) ? [] : ((validate.errors ?? []) as SchemaError[]));
}
