/** generated/models.ts (public entity types) and generated/io.ts (public request/response types). */
import { HEADER, pascal, typeImport } from './header.js';
import type { Doc, OperationEntry, Schema } from './model.js';
import { doc as tsdoc, refName, tsType } from './ts-type.js';
import { requestSchema, responseSchema } from './walk.js';

/**
 * What each component is the request or response of (`Request of \`listFiles\` (GET /...).`): the
 * documentation of a component the schema does not describe, so its hover says what it is for.
 */
function operationRoles(doc: Doc, entries: OperationEntry[]): Map<string, string[]> {
  const roles = new Map<string, string[]>();
  for (const entry of entries) {
    for (const [role, schema] of [
      ['Request', requestSchema(doc, entry)],
      ['Response', responseSchema(doc, entry)],
    ] as const) {
      if (!schema.$ref) continue;
      const name = refName(schema.$ref);
      roles.set(name, [
        ...(roles.get(name) ?? []),
        `${role} of \`${entry.op.operationId}\` (${entry.method} ${entry.path}).`,
      ]);
    }
  }
  return roles;
}

/** One exported type per component schema; entities are wrapped in `Entity<>` (the `_id` renames). */
export function emitModels(doc: Doc, entries: OperationEntry[]): string {
  const roles = operationRoles(doc, entries);
  let out = `${HEADER}/* Public-form types of the schema's components: dates are Date, media references are strings. */\nimport type { Entity, Item } from '../src/types.js';\n\nexport type { Entity, Item };\n`;
  for (const name of Object.keys(doc.components.schemas).sort()) {
    const schema = doc.components.schemas[name]!;
    out += `\n${tsdoc(schema.description ?? roles.get(name)?.join('\n'), '')}`;
    const type = tsType({ ...schema, 'x-sitekit-wire': undefined, description: undefined });
    if (schema['x-sitekit-entity']) {
      out += `export type ${name} = Entity<${name}Fields>;\n\n/** ${name} as its fields are named on the wire (before the \`_id\` renames). */\n`;
      out += `export ${type.startsWith('{') ? `interface ${name}Fields ${type}` : `type ${name}Fields = ${type};`}\n`;
    } else if (type.startsWith('{')) out += `export interface ${name} ${type}\n`;
    else out += `export type ${name} = ${type};\n`;
  }
  return out;
}

/**
 * True when a component has the name the generator gives an operation's request or response,
 * and can stand for it: a request built from path and query parameters (the REST form of an
 * RPC, e.g. `DELETE .../items/{dataItemId}`) whose every parameter is a field of the RPC's
 * request component. Any other clash is a schema error: one name would mean two types.
 */
function sameNamedComponent(doc: Doc, name: string, schema: Schema): boolean {
  const component = doc.components.schemas[name];
  if (!component) return false;
  const fields = Object.keys(component.properties ?? {});
  if (!schema.$ref && Object.keys(schema.properties ?? {}).every((field) => fields.includes(field))) return true;
  throw new Error(
    `${name}: the generated type of an operation and a component of another shape share this name; rename one of them`,
  );
}

/** `<Op>Request` and `<Op>Response` in public form for every operation. */
export function emitIo(doc: Doc, entries: OperationEntry[]): string {
  let out = '';
  for (const entry of entries) {
    const name = pascal(entry.op.operationId);
    for (const [suffix, schema] of [
      ['Request', requestSchema(doc, entry)],
      ['Response', responseSchema(doc, entry)],
    ] as const) {
      const t = tsType(schema, '', 'M.');
      const wrapped = schema['x-sitekit-entity'] ? `Entity<${t}>` : t;
      // A component of the same name is re-exported, not aliased: two declarations of one name
      // would make the declaration bundler rename one of them (`ListFilesResponse$1`).
      if (wrapped === `M.${name}${suffix}` || sameNamedComponent(doc, `${name}${suffix}`, schema)) {
        out += `\nexport type { ${name}${suffix} } from './models.js';\n`;
        continue;
      }
      out += `\n/** ${suffix} of \`${entry.op.operationId}\` (${entry.method} ${entry.path}). */\n`;
      out += wrapped.startsWith('{')
        ? `export interface ${name}${suffix} ${wrapped}\n`
        : `export type ${name}${suffix} = ${wrapped};\n`;
    }
  }
  return `${HEADER}/* Public-form request and response types of every operation. */\nimport type * as M from './models.js';\n${typeImport(out, ['Entity', 'Item'], '../src/types.js')}${out}`;
}
