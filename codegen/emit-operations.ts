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

/** Everything the operation files are written from: the rows, and the trees shared by several operations. */
interface OperationTable {
  readonly ids: string[];
  readonly rows: Record<string, unknown>[];
  /** Shared tree literal text → its constant's name. */
  readonly sharedTrees: Map<string, string>;
  /** Row indexes in emit order: operations with a fallback last, so the operation they point at is already declared. */
  readonly order: number[];
}

function operationTable(doc: Doc, entries: OperationEntry[]): OperationTable {
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
  const order = rows.map((_, n) => n).sort((a, b) => Number(!!rows[a]!.fallback) - Number(!!rows[b]!.fallback));
  return { ids, rows, sharedTrees, order };
}

/**
 * Whether an operation goes to generated/elevated-operations.ts: it needs an elevated (API-key)
 * client, so only servers call it, and its entry loads on first use instead of with the client.
 */
const isElevated = (entry: OperationEntry): boolean => entry.op['x-sitekit-elevated'] === true;

/**
 * Whether an operation goes to generated/lazy-operations.ts (`x-sitekit-lazy`): only code that
 * itself loads on first use calls it (sign-in, the redirect flow, references, aggregation).
 */
const isLazy = (entry: OperationEntry): boolean => entry.op['x-sitekit-lazy'] === true;

/** Whether an operation's entry is in generated/operations.ts itself (loads with the client). */
const isEager = (entry: OperationEntry): boolean => !isElevated(entry) && !isLazy(entry);

/** One operation's exported constant, with shared trees by name and its fallback by reference. */
function operationConstant(table: OperationTable, n: number): string {
  const row = table.rows[n]!;
  let text = literal(row);
  for (const key of TREE_KEYS) {
    const shared = row[key] === undefined ? undefined : table.sharedTrees.get(literal(row[key]));
    if (shared) text = text.replace(`${key}:${literal(row[key])}`, `${key}:${shared}`);
  }
  if (row.fallback)
    text = text.replace(`fallback:${JSON.stringify(row.fallback)}`, `fallback:${row.fallback as string}`);
  return `/** \`${row.method} ${row.path}\` */\nexport const ${table.ids[n]}: Operation = ${text};\n`;
}

/** The import of the shared trees that `body` uses (none: empty string). */
function sharedTreeImport(table: OperationTable, body: string): string {
  const used = [...table.sharedTrees.values()].filter((name) => new RegExp(`\\b${name}\\b`).test(body));
  return used.length ? `import { ${used.join(', ')} } from './operation-trees.js';\n` : '';
}

/** generated/operation-trees.ts: the transform trees used by more than one operation. */
export function emitOperationTrees(doc: Doc, entries: OperationEntry[]): string {
  const table = operationTable(doc, entries);
  let out = `${HEADER}/* Transform trees shared by several operations (generated/operations.ts, generated/elevated-operations.ts). */\n`;
  out += `import type { TransformNode } from '../src/operation.js';\n\n`;
  for (const [text, name] of table.sharedTrees) out += `export const ${name}: TransformNode = ${text};\n`;
  return out;
}

/**
 * A generated module of the operations `belongs` selects, with the union type of their ids:
 * operations that load on first use, apart from generated/operations.ts (which re-exports them).
 */
function emitOperationModule(
  doc: Doc,
  entries: OperationEntry[],
  belongs: typeof isLazy,
  purpose: string,
  idType: string,
): string {
  const table = operationTable(doc, entries);
  const selected = table.order.filter((n) => belongs(entries[n]!));
  for (const n of selected)
    if (table.rows[n]!.fallback)
      throw new Error(
        `${table.ids[n]}: an operation outside generated/operations.ts cannot have a fallback (it would be in the other file)`,
      );
  const body = selected.map((n) => operationConstant(table, n)).join('');
  let out = `${HEADER}/* ${purpose} */\n`;
  out += `import type { Operation } from '../src/operation.js';\n${sharedTreeImport(table, body)}\n`;
  out += `/** The operationIds of this module's operations. */\nexport type ${idType} =\n${selected.map((n) => `  | '${table.ids[n]}'`).join('\n')};\n\n`;
  return out + body;
}

/**
 * generated/elevated-operations.ts: the operations that need an elevated (API-key) client. Only
 * servers call them, so the SDK loads this table on the first call of one (see src/invoke.ts);
 * generated/operations.ts re-exports them for everything else.
 */
export const emitElevatedOperations = (doc: Doc, entries: OperationEntry[]): string =>
  emitOperationModule(
    doc,
    entries,
    isElevated,
    'The operations that need an elevated (API-key) client: servers only, so the SDK loads them on first use.',
    'ElevatedOperationId',
  );

/**
 * generated/lazy-operations.ts: the operations marked `x-sitekit-lazy`, called only by code that
 * loads on first use, which imports them from here so they load with it; generated/operations.ts
 * re-exports them for tests and the emulator.
 */
export const emitLazyOperations = (doc: Doc, entries: OperationEntry[]): string =>
  emitOperationModule(
    doc,
    entries,
    isLazy,
    'The operations called only by code that loads on first use (x-sitekit-lazy): they load with it.',
    'LazyOperationId',
  );

/**
 * The operation table. Each operation is its own exported constant, so a bundler drops the ones
 * an app never reaches (e.g. the v1 sign-in routes the SDK does not call); `operations` gathers
 * them all for tests and the emulator. Transform trees used by more than one operation are shared
 * constants (generated/operation-trees.ts). A fallback points at its operation, which is emitted
 * first. The elevated operations live in generated/elevated-operations.ts, the `x-sitekit-lazy` ones
 * in generated/lazy-operations.ts; both are re-exported here.
 */
export function emitOperations(doc: Doc, entries: OperationEntry[]): string {
  const table = operationTable(doc, entries);
  const { ids } = table;
  const idsIn = (belongs: typeof isLazy): string =>
    table.order
      .filter((n) => belongs(entries[n]!))
      .map((n) => ids[n]!)
      .join(', ');
  const body = table.order
    .filter((n) => isEager(entries[n]!))
    .map((n) => operationConstant(table, n))
    .join('');
  let out = `${HEADER}/* The operation table: everything that differs per operation, as data (see schema/README.md). */\n`;
  out += `import type { Operation } from '../src/operation.js';\n${sharedTreeImport(table, body)}`;
  out += `import { ${idsIn(isElevated)} } from './elevated-operations.js';\n`;
  out += `import { ${idsIn(isLazy)} } from './lazy-operations.js';\n\n`;
  out += `export { ${idsIn(isElevated)} };\nexport { ${idsIn(isLazy)} };\n\n`;
  out += `/** Every operationId of the schema. */\nexport type OperationId =\n${ids.map((id) => `  | '${id}'`).join('\n')};\n\n`;
  out += body;
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
