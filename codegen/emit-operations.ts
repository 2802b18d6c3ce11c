/** generated/operations.ts (the compact operation table) and generated/builders.ts (typed request builders). */
import { HEADER } from './header.js';
import type { Doc, OperationEntry } from './model.js';
import { parametersOf, requestSchema, responseSchema, transformTree } from './walk.js';

/** The operation table entry of one operation, as a plain object with the short keys of `Operation`. */
export function tableEntry(doc: Doc, entry: OperationEntry): Record<string, unknown> {
  const { op } = entry;
  let path = entry.path;
  for (const p of parametersOf(doc, entry)) {
    if (p.in === 'path' && p['x-sitekit-from']) path = path.replace(`{${p.name}}`, `{${p['x-sitekit-from']}}`);
  }
  const i = transformTree(doc, requestSchema(doc, entry));
  const o = transformTree(doc, responseSchema(doc, entry));
  const fqn = op['x-sitekit-method']!;
  const service = fqn.slice(0, fqn.lastIndexOf('.') + 1);
  const f = fqn === service + op.operationId[0]!.toUpperCase() + op.operationId.slice(1) ? service : fqn;
  const row: Record<string, unknown> = { id: op.operationId, m: entry.method, p: path, f };
  if (op['x-sitekit-entity']) row.e = op['x-sitekit-entity'];
  if (op['x-sitekit-args']) row.a = op['x-sitekit-args'];
  if (op['x-sitekit-unwrap']) row.u = op['x-sitekit-unwrap'];
  if (op['x-sitekit-elevated']) row.el = 1;
  if (op['x-sitekit-read-only']) row.ro = 1;
  if (op['x-sitekit-fallback']) row.fb = op['x-sitekit-fallback'];
  if (op['x-sitekit-null-if-missing']) row.nm = op['x-sitekit-null-if-missing'];
  if (i !== undefined) row.i = i;
  if (o !== undefined) row.o = o;
  return row;
}

const literal = (value: unknown): string =>
  JSON.stringify(value).replace(/"([A-Za-z_$][\w$]*)":/g, '$1:').replace(/"\$e":/g, '$e:');

/**
 * The operation table. Each operation is its own exported constant, so a bundler drops the ones
 * an app never reaches (e.g. the v1 sign-in routes the SDK does not call); `operations` gathers
 * them all for tests and the emulator. Transform trees used by more than one operation are shared
 * constants. A fallback (`fb`) points at its operation, which is emitted first.
 */
export function emitOperations(doc: Doc, entries: OperationEntry[]): string {
  const ids = entries.map((e) => e.op.operationId);
  const rows = entries.map((entry) => tableEntry(doc, entry));
  const uses = new Map<string, number>();
  for (const row of rows) for (const k of ['i', 'o']) if (row[k] !== undefined && typeof row[k] === 'object') uses.set(literal(row[k]), (uses.get(literal(row[k])) ?? 0) + 1);
  const shared = [...uses].filter(([, n]) => n > 1).map(([text]) => text);
  let out = `${HEADER}/* The operation table: everything that differs per operation, as data (see schema/README.md). */\n`;
  out += `import type { Operation, TransformNode } from './request.js';\n\n/** Every operationId of the schema. */\nexport type OperationId =\n${ids.map((id) => `  | '${id}'`).join('\n')};\n\n`;
  shared.forEach((text, n) => (out += `const t${n}: TransformNode = ${text};\n`));
  // Service prefixes of the method names, shared (see Operation.f).
  const services = [...new Set(rows.map((r) => r.f as string).filter((f) => f.endsWith('.')))];
  services.forEach((f, n) => (out += `const s${n} = ${JSON.stringify(f)};\n`));
  out += '\n';
  const order = rows.map((_, n) => n).sort((a, b) => Number(!!rows[a]!.fb) - Number(!!rows[b]!.fb));
  for (const n of order) {
    const row = rows[n]!;
    let text = literal(row);
    for (const k of ['i', 'o']) {
      const at = row[k] === undefined ? -1 : shared.indexOf(literal(row[k]));
      if (at >= 0) text = text.replace(`${k}:${literal(row[k])}`, `${k}:t${at}`);
    }
    if (row.fb) text = text.replace(`fb:${JSON.stringify(row.fb)}`, `fb:${row.fb as string}`);
    const s = services.indexOf(row.f as string);
    if (s >= 0) text = text.replace(`f:${JSON.stringify(row.f)}`, `f:s${s}`);
    out += `/** \`${row.m} ${row.p}\` */\nexport const ${ids[n]}: Operation = ${text};\n`;
  }
  out += `\n/** Every operation, by operationId (tests and the emulator; the SDK imports operations one by one). */\n`;
  out += `export const operations: { readonly [K in OperationId]: Operation } = {\n${ids.map((id) => `  ${id},`).join('\n')}\n};\n`;
  return out;
}

/** One typed builder per operation: typed wire request in, `BuiltRequest` out. */
export function emitBuilders(entries: OperationEntry[]): string {
  let out = `${HEADER}/* Typed request builders: one per operation, from its wire-form request to {method, path, query | body}. */\n`;
  out += `import { operations } from './operations.js';\nimport { buildRequest, type BuiltRequest, type WireRequest } from './request.js';\nimport type { operations as Wire } from './wire.js';\n`;
  for (const { op, method, path } of entries) {
    out += `\n/** ${op.summary ?? op.operationId} \`${method} ${path}\` */\n`;
    out += `export const ${op.operationId} = (request: WireRequest<Wire['${op.operationId}']>): BuiltRequest => buildRequest(operations.${op.operationId}, request);\n`;
  }
  return out;
}
