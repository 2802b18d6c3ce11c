/**
 * generated/control/: the emulator's control API (`schema/control/emulator.yaml`) as the emulator
 * serves it (a route table with JSON schemas), as its handlers and client are typed (openapi-typescript),
 * and as a document people and other languages read (openapi.json); plus the names a fault rule may
 * address, generated from the platform schema so that a misspelt one is refused, never silently idle.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';
import { HEADER } from './header.js';
import { listOperations } from './load.js';
import type { Doc, OperationEntry, Schema } from './model.js';
import { parametersOf } from './walk.js';

/** Where the control API's schema is, inside schema/. */
export const CONTROL_SCHEMA_FILE = join('control', 'emulator.yaml');

/** The id under which the emulator registers the control components with its validator. */
const CONTROL_SCHEMA_ID = 'sitekit-control';

/** Reads the control document (its own problems are reported with the platform's by the caller). */
export function readControlDocument(schemaDir: string): Doc {
  return parse(readFileSync(join(schemaDir, CONTROL_SCHEMA_FILE), 'utf8')) as Doc;
}

/** `wix.data.v2.DataItemService.GetDataItem` → `getDataItem`: the official SDK's function name. */
const officialName = (methodFqn: string): string => {
  const last = methodFqn.split('.').pop()!;
  return last.charAt(0).toLowerCase() + last.slice(1);
};

/**
 * Every name a fault rule may give as `operation`, with the operations it means: each operationId,
 * `namespace.operationId` of our SDK's generated methods (`x-sitekit-args`), our SDK's hand-written methods
 * (`x-sitekit-sdk-methods`), and the official SDK's function name (from `x-sitekit-method`).
 */
export function faultOperationNames(entries: readonly OperationEntry[]): Record<string, string[]> {
  const names = new Map<string, Set<string>>();
  const add = (name: string, operationId: string) => {
    if (!names.has(name)) names.set(name, new Set());
    names.get(name)!.add(operationId);
  };
  for (const { op } of entries) {
    const namespace = op.tags![0]!;
    add(op.operationId, op.operationId);
    // Only a method the SDK has: operations without x-sitekit-args are called by hand-written code.
    if (op['x-sitekit-args']) add(`${namespace}.${op.operationId}`, op.operationId);
    for (const method of op['x-sitekit-sdk-methods'] ?? []) add(method, op.operationId);
    if (op['x-sitekit-method']) add(officialName(op['x-sitekit-method']), op.operationId);
  }
  return Object.fromEntries([...names.keys()].sort().map((name) => [name, [...names.get(name)!].sort()] as const));
}

/** The control document with the fault operation names filled in: what is served and shipped. */
export function completeControlDocument(control: Doc, names: Record<string, string[]>): Doc {
  const doc = structuredClone(control);
  doc.components.schemas.FaultOperation = {
    type: 'string',
    description:
      "The operation to fail: an operationId of the platform API (queryDataItems), our SDK's method (items.query, items.getDataItem... as namespace.method) or the official SDK's function name (getDataItem).",
    enum: Object.keys(names),
  };
  return doc;
}

/** Points a schema's local `#/components/...` references at the components registered under {@link CONTROL_SCHEMA_ID}. */
const shared = (schema: Schema): Schema =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${CONTROL_SCHEMA_ID}#/components/`)) as Schema;

/** The route table of the control API: URL, method and the JSON schemas Fastify validates with. */
function controlRoutes(doc: Doc): unknown[] {
  return listOperations(doc).map((entry) => {
    const parameters = parametersOf(doc, entry);
    const objectOf = (where: 'query' | 'path'): Schema | undefined => {
      const list = parameters.filter((parameter) => parameter.in === where);
      if (!list.length) return where === 'query' ? { type: 'object', additionalProperties: false } : undefined;
      return {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(list.map((parameter) => [parameter.name, parameter.schema ?? {}])),
        required: list.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      };
    };
    const body = entry.op.requestBody?.content?.['application/json']?.schema;
    const params = objectOf('path');
    return {
      operationId: entry.op.operationId,
      method: entry.method,
      url: entry.path.replace(/\{([^}]+)\}/g, ':$1'),
      // checkControlRules allows one success answer: 200, or 201 for a creation.
      ...(entry.op.responses?.['201'] ? { status: 201 } : {}),
      ...(body ? { body: shared(body), bodyRequired: entry.op.requestBody?.required === true } : {}),
      querystring: shared(objectOf('query')!),
      ...(params ? { params: shared(params) } : {}),
    };
  });
}

/** Every file of generated/control/, keyed by its path inside generated/. */
export async function emitControl(control: Doc, names: Record<string, string[]>): Promise<Record<string, string>> {
  const wire = astToString(await openapiTS(structuredClone(control) as never, { alphabetize: false }));
  const routes = controlRoutes(control);
  const ids = listOperations(control).map((entry) => JSON.stringify(entry.op.operationId));
  return {
    'control/openapi.json': `${JSON.stringify(control, null, 2)}\n`,
    'control/wire.ts': `${HEADER}/* Wire-form types of the control API (/_emulator/*), by openapi-typescript. */\n${wire}`,
    'control/document.ts': `${HEADER}/* The control API's OpenAPI document (GET /_emulator/openapi.json). */\n\n/** The whole document, as openapi.json holds it. */\nexport const controlDocument: { components: { schemas: Record<string, unknown>; [kind: string]: unknown }; [key: string]: unknown } = ${JSON.stringify(control, null, 2)};\n`,
    'control/routes.ts': `${HEADER}/* The control API's route table. JSON schemas use $ref into the components registered as ${CONTROL_SCHEMA_ID}. */\n\nimport type { ControlOperationId } from './operations.js';\n\n/** One route of the control API. */\nexport interface ControlRoute {\n  operationId: ControlOperationId;\n  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';\n  /** Fastify-style URL (\`:param\`). */\n  url: string;\n  /** The JSON body's schema, when it takes one. */\n  body?: unknown;\n  /** Whether a body must be sent. */\n  bodyRequired?: boolean;\n  /** The query string's schema (no parameters: an empty object). */\n  querystring: unknown;\n  /** The path parameters' schema. */\n  params?: unknown;\n  /** The status of a success when it is not 200: 201 for an operation that creates something. */\n  status?: 201;\n}\n\n/** The id the routes' \`$ref\`s point at: register the document's components under it. */\nexport const CONTROL_SCHEMA_ID = ${JSON.stringify(CONTROL_SCHEMA_ID)};\n\n/** Every route. */\nexport const controlRoutes: readonly ControlRoute[] = ${JSON.stringify(routes, null, 2)};\n`,
    'control/operations.ts': `${HEADER}/* Each operation of the control API by its id: method and path (what a client needs, without the schemas). */\n\n/** Every operation of the control API. */\nexport type ControlOperationId = ${ids.join(' | ')};\n\n/** Method and path (\`{param}\` placeholders) of each operation. */\nexport const controlOperations: Readonly<Record<ControlOperationId, { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string }>> = ${JSON.stringify(Object.fromEntries(listOperations(control).map((entry) => [entry.op.operationId, { method: entry.method, path: entry.path }])), null, 2)};\n`,
    'control/fault-operations.ts': `${HEADER}/* The names a fault rule may address (operation), each with the operationIds it means. */\n\n/** Name → the operations of the platform API it means. */\nexport const faultOperations: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(names, null, 2)};\n`,
  };
}
