/** generated/operations.ts (the compact operation table) and generated/builders.ts (typed request builders). */
import { HEADER, pascal } from './header.js';
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
    const expects = arg.rest ? 'options' : (arg.kind ?? expectedType(deref(doc, publicPath(doc, request, arg.path).raw).schema));
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
  const row: Record<string, unknown> = { id: op.operationId, method: entry.method, path, methodFqn: op['x-sitekit-method'] };
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

/** Keys whose values are transform trees (shared between operations when equal). */
const TREE_KEYS = ['request', 'response'] as const;

/** A TypeScript literal of `value`, with identifier keys unquoted. */
const literal = (value: unknown): string => JSON.stringify(value).replace(/"([A-Za-z_$][\w$]*)":/g, '$1:');

/** A readable constant name for a shared transform tree, from its top-level fields. */
function treeName(tree: unknown, taken: Set<string>): string {
  const fields = typeof tree === 'object' && tree ? Object.keys(tree).filter((key) => !key.startsWith('$')) : [];
  const base = `${fields.map((field, n) => (n ? pascal(field) : field)).join('And') || 'shared'}Transform`;
  let name = base;
  for (let count = 2; taken.has(name); count++) name = `${base}${count}`;
  taken.add(name);
  return name;
}

/**
 * The operation table. Each operation is its own exported constant, so a bundler drops the ones
 * an app never reaches (e.g. the v1 sign-in routes the SDK does not call); `operations` gathers
 * them all for tests and the emulator. Transform trees used by more than one operation are shared
 * constants. A fallback points at its operation, which is emitted first.
 */
export function emitOperations(doc: Doc, entries: OperationEntry[]): string {
  const ids = entries.map((entry) => entry.op.operationId);
  const rows = entries.map((entry) => tableEntry(doc, entry));
  // Each distinct tree by its literal text, with how many operations use it.
  const uses = new Map<string, { tree: unknown; count: number }>();
  for (const row of rows) {
    for (const key of TREE_KEYS) {
      if (typeof row[key] !== 'object') continue;
      const text = literal(row[key]);
      const use = uses.get(text) ?? { tree: row[key], count: 0 };
      use.count++;
      uses.set(text, use);
    }
  }
  const taken = new Set<string>(ids);
  const sharedTrees = new Map<string, string>();
  for (const [text, use] of uses) if (use.count > 1) sharedTrees.set(text, treeName(use.tree, taken));
  let out = `${HEADER}/* The operation table: everything that differs per operation, as data (see schema/README.md). */\n`;
  out += `import type { Operation, TransformNode } from '../src/operation.js';\n\n/** Every operationId of the schema. */\nexport type OperationId =\n${ids.map((id) => `  | '${id}'`).join('\n')};\n\n`;
  for (const [text, name] of sharedTrees) out += `const ${name}: TransformNode = ${text};\n`;
  out += '\n';
  // Operations with a fallback come last, so the operation they point at is already declared.
  const order = rows.map((_, n) => n).sort((a, b) => Number(!!rows[a]!.fallback) - Number(!!rows[b]!.fallback));
  for (const n of order) {
    const row = rows[n]!;
    let text = literal(row);
    for (const key of TREE_KEYS) {
      const shared = row[key] === undefined ? undefined : sharedTrees.get(literal(row[key]));
      if (shared) text = text.replace(`${key}:${literal(row[key])}`, `${key}:${shared}`);
    }
    if (row.fallback) text = text.replace(`fallback:${JSON.stringify(row.fallback)}`, `fallback:${row.fallback as string}`);
    out += `/** \`${row.method} ${row.path}\` */\nexport const ${ids[n]}: Operation = ${text};\n`;
  }
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
