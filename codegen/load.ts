/** Loads schema/*.yaml, merges them into one OpenAPI 3.1 document and checks sitekit's own rules. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Doc, EventOperation, OperationEntry, Schema } from './model.js';
import { EVENT_KINDS, HTTP_METHODS, NAMESPACES } from './model.js';

/** Every schema file, sorted, with its parsed content. */
export function readSchemaFiles(dir: string): { file: string; doc: Doc }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => ({ file, doc: parse(readFileSync(join(dir, file), 'utf8')) as Doc }));
}

/** Merges the per-service documents; a path+method or component defined twice is an error. */
export function mergeDocuments(files: { file: string; doc: Doc }[]): Doc {
  const merged: Doc = {
    openapi: '3.1.0',
    info: { title: 'sitekit: the platform APIs the SDK calls', version: '1.0.0' },
    paths: {},
    components: { schemas: {}, responses: {}, parameters: {} },
  };
  const owner = new Map<string, string>();
  for (const { file, doc } of files) {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const target = (merged.paths[path] ??= {});
      for (const [method, op] of Object.entries(item)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (owner.has(key)) throw new Error(`${file}: ${key} is already defined in ${owner.get(key)}`);
        owner.set(key, file);
        target[method] = op;
      }
    }
    for (const [eventType, item] of Object.entries(doc.webhooks ?? {})) {
      const key = `webhooks/${eventType}`;
      if (owner.has(key)) throw new Error(`${file}: ${key} is already defined in ${owner.get(key)}`);
      owner.set(key, file);
      (merged.webhooks ??= {})[eventType] = item;
    }
    for (const [kind, entries] of Object.entries(doc.components ?? {})) {
      const target = ((merged.components as Record<string, Record<string, unknown>>)[kind] ??= {});
      for (const [name, value] of Object.entries(entries as Record<string, unknown>)) {
        const key = `components/${kind}/${name}`;
        if (owner.has(key)) throw new Error(`${file}: ${key} is already defined in ${owner.get(key)}`);
        owner.set(key, file);
        target[name] = value;
      }
    }
  }
  return merged;
}

/** Which schema file declares each operation (by operationId) and each component schema (by name). */
export interface DefinitionFiles {
  operations: Record<string, string>;
  schemas: Record<string, string>;
}

/**
 * The schema file of every operation and component schema, so a tool that finds a problem in an
 * answer (`sitekit-sdk verify`'s schema drift) can name the file to change, `schema/` being merged
 * into one document before anything else sees it.
 */
export function definitionFiles(files: { file: string; doc: Doc }[]): DefinitionFiles {
  const found: DefinitionFiles = { operations: {}, schemas: {} };
  for (const { file, doc } of files) {
    for (const item of Object.values(doc.paths ?? {}))
      for (const [method, op] of Object.entries(item))
        if (HTTP_METHODS.includes(method) && op.operationId) found.operations[op.operationId] = `schema/${file}`;
    for (const name of Object.keys(doc.components?.schemas ?? {})) found.schemas[name] = `schema/${file}`;
  }
  return found;
}

/** All operations of the merged document, sorted by operationId. */
export function listOperations(doc: Doc): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      entries.push({ path, method: method.toUpperCase() as OperationEntry['method'], op });
    }
  }
  return entries.sort((a, b) => (a.op.operationId < b.op.operationId ? -1 : 1));
}

/** Follows a local `$ref` to its component. */
export function resolveRef(doc: Doc, ref: string): unknown {
  const m = /^#\/components\/(\w+)\/([^/]+)$/.exec(ref);
  const target = m ? (doc.components as Record<string, Record<string, unknown>>)[m[1]!]?.[m[2]!] : undefined;
  if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
  return target;
}

/** The operation markers of schema/README.md; any other `x-sitekit-*` key on an operation is a mistake. */
const OPERATION_MARKERS: ReadonlySet<string> = new Set([
  'x-sitekit-method',
  'x-sitekit-entity',
  'x-sitekit-args',
  'x-sitekit-unwrap',
  'x-sitekit-elevated',
  'x-sitekit-read-only',
  'x-sitekit-fallback',
  'x-sitekit-null-if-missing',
  'x-sitekit-sdk-methods',
]);

/** Checks what OpenAPI's own schema cannot: refs resolve, and the x-sitekit rules of schema/README.md. */
export function checkRules(doc: Doc): string[] {
  const problems: string[] = [];
  (function walk(node: unknown, at: string): void {
    if (Array.isArray(node)) {
      for (const [index, element] of node.entries()) walk(element, `${at}/${index}`);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const ref = (node as Schema).$ref;
    if (typeof ref === 'string') {
      try {
        resolveRef(doc, ref);
      } catch (e) {
        problems.push(`${at}: ${(e as Error).message}`);
      }
    }
    for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
  })(doc, '#');
  const ids = new Set<string>();
  for (const { path, method, op } of listOperations(doc)) {
    const where = `${method} ${path}`;
    if (!op.operationId) problems.push(`${where}: no operationId`);
    else if (ids.has(op.operationId)) problems.push(`${where}: duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    if (!op.tags || op.tags.length !== 1 || !NAMESPACES.includes(op.tags[0]!))
      problems.push(`${where}: tags must be one of ${NAMESPACES.join(', ')}`);
    if (!op['x-sitekit-method']) problems.push(`${where}: no x-sitekit-method`);
    if (!op.summary) problems.push(`${where}: no summary`);
    // The schema says what the API is; how the SDK bundles an operation is decided by the code
    // that imports it (src/README.md), so no marker may say it.
    for (const key of Object.keys(op))
      if (key.startsWith('x-sitekit-') && !OPERATION_MARKERS.has(key)) problems.push(`${where}: unknown marker ${key}`);
    if (!op.responses?.['200']) problems.push(`${where}: no 200 response`);
    for (const method of op['x-sitekit-sdk-methods'] ?? [])
      if (!new RegExp(`^(${NAMESPACES.join('|')})\\.[a-z][A-Za-z]*$`).test(method))
        problems.push(`${where}: x-sitekit-sdk-methods ${method} is not namespace.method`);
    const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const declared = (op.parameters ?? [])
      .map((p) => ('$ref' in p ? (resolveRef(doc, p.$ref as string) as { name: string; in: string }) : p))
      .filter((p) => p.in === 'path')
      .map((p) => p.name);
    for (const name of placeholders)
      if (!declared.includes(name!)) problems.push(`${where}: path parameter {${name}} is not declared`);
  }
  for (const { path, method, op } of listOperations(doc)) {
    const fb = op['x-sitekit-fallback'];
    if (fb && !ids.has(fb)) problems.push(`${method} ${path}: x-sitekit-fallback ${fb} is no operation`);
    if (fb && method !== 'GET') problems.push(`${method} ${path}: only a GET has a fallback`);
  }
  for (const { eventType, op } of listEvents(doc)) {
    const where = `webhooks/${eventType}`;
    if (!op.operationId?.startsWith('on')) problems.push(`${where}: the operationId is the handler method, on...`);
    if (!op.tags || op.tags.length !== 1 || !NAMESPACES.includes(op.tags[0]!))
      problems.push(`${where}: tags must be one of ${NAMESPACES.join(', ')}`);
    if (!EVENT_KINDS.includes(op['x-sitekit-event']!))
      problems.push(`${where}: x-sitekit-event must be one of ${EVENT_KINDS.join(', ')}`);
    if (!op.requestBody?.content?.['application/json']?.schema?.$ref)
      problems.push(`${where}: the body is a $ref to the entity or action body`);
  }
  return problems;
}

/** The domain events of the merged document (its `webhooks`), sorted by event type. */
export function listEvents(doc: Doc): { eventType: string; op: EventOperation }[] {
  return Object.entries(doc.webhooks ?? {})
    .flatMap(([eventType, item]) => (item.post ? [{ eventType, op: item.post }] : []))
    .sort((a, b) => (a.eventType < b.eventType ? -1 : 1));
}

/** Checks the control API's document (schema/control/): ids, summaries, one success answer, and paths under /_emulator/. */
export function checkControlRules(doc: Doc): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const { path, method, op } of listOperations(doc)) {
    const where = `control: ${method} ${path}`;
    if (!path.startsWith('/_emulator/')) problems.push(`${where}: the control API lives under /_emulator/`);
    if (!op.operationId) problems.push(`${where}: no operationId`);
    else if (ids.has(op.operationId)) problems.push(`${where}: duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    if (!op.summary) problems.push(`${where}: no summary`);
    // One success answer: 200, or 201 for an operation that creates something (its route answers it).
    if (Object.keys(op.responses ?? {}).filter((status) => status == '200' || status == '201').length != 1)
      problems.push(`${where}: one success response, 200 or 201`);
    if (Object.keys(op).some((key) => key.startsWith('x-sitekit-')))
      problems.push(`${where}: no x-sitekit marker here`);
  }
  return problems;
}
