/** Reads per-operation facts out of the merged schema: request/response schemas and transform trees. */
import { resolveRef } from './load.js';
import type { Doc, OperationEntry, Parameter, Schema } from './model.js';
import { WIRE_CODES } from './model.js';

/** A transform tree as the generator builds it (`TransformNode` in src/operation.ts). */
export type Node = string | { [key: string]: Node | true };

const BODY_METHODS = ['POST', 'PUT', 'PATCH'];
/** Marks an entity root in a transform tree (the `_id` renames apply below it). */
const ENTITY_MARKER = '$entity';
/** The node for every value of a map (`additionalProperties`). */
const MAP_VALUES_MARKER = '$values';

/** True when the operation sends its request object as a JSON body. */
export const hasBody = (entry: OperationEntry): boolean => BODY_METHODS.includes(entry.method);

/** The operation's parameters, with `$ref`s resolved. */
export function parametersOf(doc: Doc, entry: OperationEntry): Parameter[] {
  return (entry.op.parameters ?? []).map((p) => ('$ref' in p ? (resolveRef(doc, p.$ref) as Parameter) : p));
}

/** The request object's schema: the JSON body, or the path and query parameters as one object. */
export function requestSchema(doc: Doc, entry: OperationEntry): Schema {
  if (hasBody(entry))
    return entry.op.requestBody?.content?.['application/json']?.schema ?? { type: 'object', properties: {} };
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const p of parametersOf(doc, entry)) {
    if (p.in === 'header') continue;
    if (p.in === 'path' && p['x-sitekit-from'] && p['x-sitekit-from'] !== p.name) continue;
    properties[p.name] = {
      ...(p.schema ?? { type: 'string' }),
      ...(p.description ? { description: p.description } : {}),
    };
    if (p.required || p.in === 'path') required.push(p.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** The 200 response's JSON schema. */
export function responseSchema(doc: Doc, entry: OperationEntry): Schema {
  let res = entry.op.responses?.['200'] as { $ref?: string; content?: Record<string, { schema?: Schema }> } | undefined;
  if (res?.$ref) res = resolveRef(doc, res.$ref) as typeof res;
  return res?.content?.['application/json']?.schema ?? { type: 'object', properties: {} };
}

/** Follows `$ref`s; a marker or description beside a `$ref` wins over the target's. */
export function deref(doc: Doc, schema: Schema): { schema: Schema; refs: string[] } {
  const refs: string[] = [];
  let s = schema;
  const own: Schema = {};
  while (s.$ref) {
    if (refs.includes(s.$ref)) throw new Error(`$ref cycle through ${s.$ref}`);
    refs.push(s.$ref);
    for (const key of ['x-sitekit-wire', 'description'] as const)
      if (s[key] !== undefined && own[key] === undefined) own[key] = s[key] as string;
    s = resolveRef(doc, s.$ref) as Schema;
  }
  return { schema: { ...s, ...own }, refs };
}

function merge(a: Node | undefined, b: Node | undefined, at: string): Node | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (typeof a === 'string' || typeof b === 'string') {
    if (a === b) return a;
    throw new Error(`conflicting transforms at ${at}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  }
  const out: Record<string, Node | true> = { ...a };
  for (const [key, value] of Object.entries(b))
    out[key] =
      key === ENTITY_MARKER ? true : (merge(out[key] as Node | undefined, value as Node, `${at}.${key}`) as Node);
  return out;
}

/**
 * The transform tree of a schema (see TransformNode in src/operation.ts), or undefined when
 * nothing in it differs between the public and the wire form. Recursion stops at a `$ref` already
 * being walked (recursive filter and value types carry no transforms of their own).
 */
export function transformTree(doc: Doc, schema: Schema, stack: string[] = [], at = '#'): Node | undefined {
  if (schema.$ref && stack.includes(schema.$ref)) return undefined;
  const { schema: s, refs } = deref(doc, schema);
  const inner = [...stack, ...refs];
  const marker = s['x-sitekit-wire'];
  if (marker) {
    const code = WIRE_CODES[marker];
    if (!code) throw new Error(`${at}: unknown x-sitekit-wire "${marker}"`);
    return code;
  }
  if (s.format === 'date-time') return 'date';
  let node: Node | undefined;
  if (s.items) node = merge(node, transformTree(doc, s.items, inner, `${at}[]`), at);
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    const child = transformTree(doc, prop, inner, `${at}.${key}`);
    if (child !== undefined) node = merge(node, { [key]: child }, at);
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    const child = transformTree(doc, s.additionalProperties, inner, `${at}.*`);
    if (child !== undefined) node = merge(node, { [MAP_VALUES_MARKER]: child }, at);
  }
  for (const variant of [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])])
    node = merge(node, transformTree(doc, variant, inner, at), at);
  if (s['x-sitekit-entity']) node = merge({ [ENTITY_MARKER]: true }, node, at);
  return node;
}

const RENAMED: Record<string, string> = { id: '_id', createdDate: '_createdDate', updatedDate: '_updatedDate' };

/**
 * Maps a dotted wire path in a request schema to its public path (renaming inside entities), and
 * returns the schema found there.
 */
export function publicPath(
  doc: Doc,
  root: Schema,
  wirePath: string,
): { path: string[]; schema: Schema; raw: Schema; inEntity: boolean; required: boolean } {
  let current = deref(doc, root).schema;
  let inEntity = !!current['x-sitekit-entity'];
  const path: string[] = [];
  let required = true;
  let raw = root;
  for (const segment of wirePath.split('.')) {
    while (current.items) current = deref(doc, current.items).schema;
    const prop = current.properties?.[segment];
    if (!prop) throw new Error(`no field "${segment}" (in "${wirePath}")`);
    required &&= (current.required ?? []).includes(segment);
    path.push(inEntity && RENAMED[segment] ? RENAMED[segment]! : segment);
    raw = prop;
    current = deref(doc, prop).schema;
    inEntity ||= !!current['x-sitekit-entity'];
  }
  return { path, schema: current, raw, inEntity, required };
}
