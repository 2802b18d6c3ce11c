/** Prints the public-form TypeScript type of a schema (dates as Date, media references as strings...). */
import type { Schema } from './model.js';

const PUBLIC_OF_MARKER: Record<string, string> = {
  float: 'number',
  'field-mask': 'string[]',
  image: 'string',
  video: 'string',
  audio: 'string',
  document: 'string',
  item: 'Item',
  'item-data': 'Record<string, unknown>',
};

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** `/** text *\/` lines for a description, indented. */
export function doc(text: string | undefined, indent: string): string {
  if (!text) return '';
  const lines = text.trim().replace(/\*\//g, '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** A property key, quoted when it is not an identifier. */
export const key = (name: string): string => (IDENT.test(name) ? name : JSON.stringify(name));

/** Name of the component a `$ref` points at, with `prefix` (e.g. `M.`). */
export const refName = (ref: string, prefix = ''): string => prefix + ref.slice(ref.lastIndexOf('/') + 1);

/**
 * The TypeScript type of `schema` in public form. `refPrefix` qualifies component names when the
 * type is printed outside models.ts.
 */
export function tsType(schema: Schema, indent = '', refPrefix = ''): string {
  const marker = schema['x-sitekit-wire'];
  if (marker) {
    const t = PUBLIC_OF_MARKER[marker];
    if (!t) throw new Error(`unknown x-sitekit-wire "${marker}"`);
    return marker === 'item-data' && schema.type === 'array' ? 'unknown[]' : t;
  }
  if (schema.$ref) return refName(schema.$ref, refPrefix);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.oneOf || schema.anyOf)
    return (schema.oneOf ?? schema.anyOf)!.map((s) => paren(tsType(s, indent, refPrefix))).join(' | ');
  if (schema.allOf) return schema.allOf.map((s) => paren(tsType(s, indent, refPrefix))).join(' & ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return types.map((t) => tsType({ ...schema, type: t }, indent, refPrefix)).join(' | ');
  switch (types[0]) {
    case 'string':
      return schema.format === 'date-time' ? 'Date' : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${paren(schema.items ? tsType(schema.items, indent, refPrefix) : 'unknown')}[]`;
    case 'object':
    case undefined:
      return objectType(schema, indent, refPrefix);
    default:
      throw new Error(`unsupported type ${JSON.stringify(schema.type)}`);
  }
}

function paren(t: string): string {
  return /[|&]/.test(t) && !t.startsWith('{') ? `(${t})` : t;
}

function objectType(schema: Schema, indent: string, refPrefix: string): string {
  const props = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  const extraType =
    extra === true || (extra === undefined && props.length === 0)
      ? 'unknown'
      : extra && typeof extra === 'object'
        ? tsType(extra, indent, refPrefix)
        : undefined;
  if (props.length === 0) return extraType ? `Record<string, ${extraType}>` : 'Record<string, never>';
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  let out = '{\n';
  for (const [name, prop] of props) {
    out += doc(prop.description, inner);
    out += `${inner}${key(name)}${required.has(name) ? '' : '?'}: ${tsType(prop, inner, refPrefix)};\n`;
  }
  if (extraType) out += `${inner}[key: string]: ${extraType === 'unknown' ? 'unknown' : `${extraType} | undefined`};\n`;
  return `${out}${indent}}`;
}
