/**
 * generated/operations/<operationId>.ts (one module per operation), generated/operations.ts (the whole
 * table), generated/elevated-operations.ts and generated/builders.ts (typed request builders).
 */
import { HEADER } from './header.js';
import type { Doc, OperationEntry, Schema } from './model.js';
import { parseArgs } from './emit-namespaces.js';
import { deref, parametersOf, publicPath, requestSchema, responseSchema, transformTree } from './walk.js';

/** What a positional argument must be, from its schema type (`OperationArgument.expects`). */
function expectedType(schema: Schema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== 'null') : schema.type;
  if (type === 'integer') return 'number';
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'array') return type;
  return 'object';
}

/**
 * The arguments of an operation's SDK method, as the runtime checks and places them: name, wire
 * path (when it is not the name), what the value must be, and whether it may be left out.
 */
function argumentTable(doc: Doc, entry: OperationEntry): Record<string, unknown>[] {
  const request = requestSchema(doc, entry);
  return parseArgs(entry.op['x-sitekit-args']!).map((arg) => {
    const expects = arg.rest
      ? 'options'
      : (arg.kind ?? expectedType(deref(doc, publicPath(doc, request, arg.path).raw).schema));
    const row: Record<string, unknown> = { name: arg.name };
    if (arg.path && arg.path !== arg.name) row.path = arg.path;
    row.expects = expects;
    if (arg.optional) row.optional = true;
    return row;
  });
}

/** The operation table entry of one operation, as a plain object with the keys of `Operation`. */
export function tableEntry(doc: Doc, entry: OperationEntry): Record<string, unknown> {
  const { op } = entry;
  let path = entry.path;
  for (const parameter of parametersOf(doc, entry)) {
    const from = parameter['x-sitekit-from'];
    if (parameter.in === 'path' && from) path = path.replace(`{${parameter.name}}`, `{${from}}`);
  }
  const row: Record<string, unknown> = {
    id: op.operationId,
    method: entry.method,
    path,
    methodFqn: op['x-sitekit-method'],
  };
  if (op['x-sitekit-entity']) row.entity = op['x-sitekit-entity'];
  if (op['x-sitekit-args']) row.args = argumentTable(doc, entry);
  if (op['x-sitekit-unwrap']) row.unwrap = op['x-sitekit-unwrap'];
  if (op['x-sitekit-elevated']) row.elevated = true;
  if (op['x-sitekit-read-only']) row.readOnly = true;
  if (op['x-sitekit-fallback']) row.fallback = op['x-sitekit-fallback'];
  if (op['x-sitekit-null-if-missing']) row.nullIfMissing = op['x-sitekit-null-if-missing'];
  const request = transformTree(doc, requestSchema(doc, entry));
  const response = transformTree(doc, responseSchema(doc, entry));
  if (request !== undefined) row.request = request;
  if (response !== undefined) row.response = response;
  return row;
}

/** A TypeScript literal of `value`, with identifier keys unquoted. */
const literal = (value: unknown): string => JSON.stringify(value).replace(/"([A-Za-z_$][\w$]*)":/g, '$1:');

/**
 * Whether an operation needs an elevated (API-key) client: only servers call it. Its entry is
 * re-exported by generated/elevated-operations.ts, which the SDK loads on the first call of one.
 */
const isElevated = (entry: OperationEntry): boolean => entry.op['x-sitekit-elevated'] === true;

/** The path of an operation's own module, from generated/. */
const moduleOf = (id: string): string => `./operations/${id}.js`;

/**
 * generated/operations/<operationId>.ts, one small module per operation: its table entry as one
 * exported constant (its fallback imported from the fallback's own module). Nothing in the schema
 * says where an operation is bundled: the SDK code that calls it imports its module, and the
 * bundler places it with that code (in the eager bundle, or in the chunk of a feature that loads
 * on first use).
 */
export function emitOperationModules(doc: Doc, entries: OperationEntry[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of entries) {
    const row = tableEntry(doc, entry);
    const id = entry.op.operationId;
    let text = literal(row);
    let imports = "import type { Operation } from '../../src/operation.js';\n";
    if (row.fallback) {
      const fallback = row.fallback as string;
      text = text.replace(`fallback:${JSON.stringify(fallback)}`, `fallback:${fallback}`);
      imports += `import { ${fallback} } from './${fallback}.js';\n`;
    }
    files[`operations/${id}.ts`] =
      `${HEADER}${imports}\n/** \`${row.method} ${row.path}\` */\nexport const ${id}: Operation = ${text};\n`;
  }
  return files;
}

/**
 * generated/elevated-operations.ts: the operations that need an elevated (API-key) client,
 * re-exported from their own modules. Only servers call them, so the SDK (src/invoke.ts) imports
 * this module on the first call of one.
 */
export function emitElevatedOperations(entries: OperationEntry[]): string {
  const ids = entries.filter(isElevated).map((entry) => entry.op.operationId);
  let out = `${HEADER}/* The operations that need an elevated (API-key) client: servers only, so the SDK loads them on first use. */\n`;
  out += ids.map((id) => `export { ${id} } from '${moduleOf(id)}';\n`).join('');
  out += `export type { ElevatedOperationId } from './elevated-operation-ids.js';\n`;
  return out;
}

/**
 * generated/elevated-operation-ids.ts: the ids of {@link emitElevatedOperations}'s operations, in
 * a module that imports nothing, so src/operation.ts can name them without importing the
 * operation modules, which import it.
 */
export function emitElevatedOperationIds(entries: OperationEntry[]): string {
  const ids = entries.filter(isElevated).map((entry) => entry.op.operationId);
  return `${HEADER}\n/** The operationIds of the operations that need an elevated (API-key) client. */\nexport type ElevatedOperationId =\n${ids.map((id) => `  | '${id}'`).join('\n')};\n`;
}

/**
 * generated/operations.ts: every operation, re-exported from its own module, and the whole table
 * by operationId, for tests, the emulator and the typed builders. The SDK imports each operation
 * from its own module instead, so that it is bundled with the code that calls it.
 */
export function emitOperations(entries: OperationEntry[]): string {
  const ids = entries.map((entry) => entry.op.operationId);
  let out = `${HEADER}/* The operation table: everything that differs per operation, as data (see schema/README.md). */\n`;
  out += `import type { Operation } from '../src/operation.js';\n`;
  out += ids.map((id) => `import { ${id} } from '${moduleOf(id)}';\n`).join('');
  out += `\nexport {\n${ids.map((id) => `  ${id},`).join('\n')}\n};\n\n`;
  out += `/** Every operationId of the schema. */\nexport type OperationId =\n${ids.map((id) => `  | '${id}'`).join('\n')};\n`;
  out += `\n/** Every operation, by operationId (tests and the emulator; the SDK imports operations one by one). */\n`;
  out += `export const operations: { readonly [K in OperationId]: Operation } = {\n${ids.map((id) => `  ${id},`).join('\n')}\n};\n`;
  return out;
}

/** One typed builder per operation: typed wire request in, `BuiltRequest` out. */
export function emitBuilders(entries: OperationEntry[]): string {
  let out = `${HEADER}/* Typed request builders: one per operation, from its wire-form request to {method, path, query | body}. */\n`;
  out += `import { operations } from './operations.js';\nimport { buildRequest, type BuiltRequest, type WireRequest } from '../src/request.js';\nimport type { operations as Wire } from './wire.js';\n`;
  for (const { op, method, path } of entries) {
    out += `\n/** ${op.summary ?? op.operationId} \`${method} ${path}\` */\n`;
    out += `export const ${op.operationId} = (request: WireRequest<Wire['${op.operationId}']>): BuiltRequest => buildRequest(operations.${op.operationId}, request);\n`;
  }
  return out;
}
