/** generated/namespaces.ts: the typed signatures of the SDK methods that x-sitekit-args describe. */
import { HEADER, pascal, typeImport } from './header.js';
import type { Doc, OperationEntry } from './model.js';
import { NAMESPACES } from './model.js';
import { doc as tsdoc, tsType } from './ts-type.js';
import { publicPath, requestSchema, responseSchema } from './walk.js';

/** What an argument marked `as <kind>` is (see schema/README.md). */
export const ARGUMENT_KINDS = ['item', 'item-with-id', 'item-ref', 'item-refs'] as const;
export type ArgumentKind = (typeof ARGUMENT_KINDS)[number];

/** A parsed entry of x-sitekit-args. */
export interface Arg {
  /** Dotted wire path, or '' for a rest object merged at the top level. */
  path: string;
  rest: boolean;
  optional: boolean;
  name: string;
  /** The `as <kind>` marker, if any. */
  kind?: ArgumentKind;
}

/** Parses `x-sitekit-args` (see schema/README.md): `path`, `path?`, `path as <kind>`, `...options`, `...request`. */
export function parseArgs(args: string[]): Arg[] {
  return args.map((raw) => {
    const [spec, marker] = raw.split(' as ') as [string, string | undefined];
    if (marker !== undefined && !(ARGUMENT_KINDS as readonly string[]).includes(marker))
      throw new Error(`x-sitekit-args: unknown kind "${marker}" in "${raw}"`);
    const rest = spec.startsWith('...');
    const optional = rest ? spec === '...options' : spec.endsWith('?');
    const path = rest ? '' : spec.replace(/\?$/, '');
    const name = rest ? spec.slice(3) : path.slice(path.lastIndexOf('.') + 1);
    return { path, rest, optional, name, ...(marker ? { kind: marker as ArgumentKind } : {}) };
  });
}

/** The public type of an argument marked `as <kind>`, for the item type `T`. */
const KIND_TYPES: Record<ArgumentKind, string> = {
  item: 'ItemInput<T>',
  // (The `_id` is checked at run time: callers often hold items typed with an optional `_id`.)
  'item-with-id': 'ItemInput<T>',
  'item-ref': 'ItemRef',
  'item-refs': 'readonly ItemRef[]',
};

/** True when the method deals in data items: an item argument, or an item as its (unwrapped) result. */
function itemTyped(doc: Doc, entry: OperationEntry, args: Arg[]): boolean {
  if (args.some((arg) => arg.kind === 'item' || arg.kind === 'item-with-id')) return true;
  const unwrap = entry.op['x-sitekit-unwrap'];
  if (!unwrap) return false;
  return publicPath(doc, responseSchema(doc, entry), unwrap).schema['x-sitekit-wire'] === 'item';
}

/** A type that hovers show by its own name: a component (`M.DataCollection`), or a primitive. */
const NAMED_TYPE = /^(M\.\w+|Entity<M\.\w+>|string|number|boolean)(\[\])?$/;

/**
 * What the method resolves with. An unwrapped field is given by its own type when it has a name
 * (`getDataCollection` → `DataCollection`, not `NonNullable<...['collection']>`).
 */
function resultType(doc: Doc, entry: OperationEntry, io: string, itemType: boolean): string {
  const unwrap = entry.op['x-sitekit-unwrap'];
  if (!unwrap) return `${io}Response`;
  if (itemType) return 'DataItemOf<T>';
  const at = publicPath(doc, responseSchema(doc, entry), unwrap);
  let type = tsType(at.raw, '  ', 'M.');
  if (at.inEntity && !at.schema['x-sitekit-entity'] && type.startsWith('M.')) type = `Entity<${type}>`;
  return NAMED_TYPE.test(type) ? type : `NonNullable<${io}Response['${unwrap}']>`;
}

function signature(doc: Doc, entry: OperationEntry): string {
  const { op } = entry;
  const io = `IO.${pascal(op.operationId)}`;
  const args = parseArgs(op['x-sitekit-args']!);
  const itemType = itemTyped(doc, entry, args);
  const reqSchema = requestSchema(doc, entry);
  const located = args.map((a) => (a.rest ? undefined : publicPath(doc, reqSchema, a.path)));
  const params: string[] = [];
  const names = new Set<string>();
  args.forEach((a, n) => {
    let name = a.name;
    while (names.has(name)) name += '_';
    names.add(name);
    let type: string;
    if (a.rest) {
      const omit = [...new Set(located.filter((l) => l).map((l) => `'${l!.path[0]}'`))];
      type = `${omit.length ? `Omit<${io}Request, ${omit.join(' | ')}>` : `${io}Request`} & CallOptions`;
    } else {
      const at = located[n]!;
      type = tsType(at.raw, '  ', 'M.');
      if (at.inEntity && !at.schema['x-sitekit-entity'] && type.startsWith('M.')) type = `Entity<${type}>`;
      if (a.kind) type = KIND_TYPES[a.kind];
    }
    params.push(`${name}${a.optional ? '?' : ''}: ${type}`);
  });
  if (!args.some((a) => a.rest)) params.push('options?: CallOptions');
  let result = resultType(doc, entry, io, itemType);
  if (op['x-sitekit-null-if-missing']) result += ' | null';
  let text = `${op.summary ?? ''}\n`;
  if (op.description) text += `\n${op.description.trim()}\n`;
  if (op['x-sitekit-elevated'])
    text +=
      '\nRequires an elevated client (`ApiKeyStrategy`); otherwise rejects with `ElevationRequiredError` before any request.\n';
  if (op['x-sitekit-null-if-missing']) text += '\nResolves `null` when there is no such entity.\n';
  text += `\nWire: \`${entry.method} ${entry.path}\`.`;
  if (!itemType) return `${tsdoc(text, '  ')}  ${op.operationId}(${params.join(', ')}): Promise<${result}>;\n`;
  if (params.some((param) => param.includes('ItemInput<T>')))
    return itemWriteSignature(op.operationId, text, params, result);
  return registeredAndTypedOverloads(op.operationId, text, params, result);
}

/**
 * The one signature of a method that writes an item: typed by the collection ID alone (`T` not
 * given), or by an explicit item type `T` (see `WriteCollectionId`: two overloads would make
 * TypeScript 7 report a wrong field as a wrong collection ID).
 */
function itemWriteSignature(name: string, text: string, params: string[], result: string): string {
  if (params[0] !== 'dataCollectionId: string')
    throw new Error(`${name}: a method that deals in items takes the collection ID first`);
  const written = [
    'dataCollectionId: WriteCollectionId<T, C>',
    ...params.slice(1).map((param) => param.replace(/ItemInput<T>/g, 'ItemInput<WrittenItem<T, C>>')),
  ];
  const resolved = result.replace(/<T>/g, '<WriteResult<T, C>>');
  return `${tsdoc(`${text}\n\nTyped by the collection's registered type, or by the item type \`T\` given (any collection ID).`, '  ')}  ${name}<T extends object = DefaultItem, C extends string = string>(${written.join(', ')}): Promise<${resolved}>;\n`;
}

/**
 * The two overloads of a method that deals in items: typed by the collection ID alone (its
 * registered type, `Item` while nothing is registered), and typed by an explicit item type `T`
 * (any collection ID; see `TypedCollectionId`).
 */
function registeredAndTypedOverloads(name: string, text: string, params: string[], result: string): string {
  const collectionParam = /^dataCollectionId: string$/;
  if (!collectionParam.test(params[0] ?? ''))
    throw new Error(`${name}: a method that deals in items takes the collection ID first`);
  const registered = [
    'dataCollectionId: C',
    ...params.slice(1).map((param) => param.replace(/<T>/g, '<CollectionItem<C>>')),
  ];
  const typed = [
    'dataCollectionId: TypedCollectionId<T>',
    ...params.slice(1).map((param) => param.replace(/ItemInput<T>/g, 'ItemInput<InferableItem<T>>')),
  ];
  return (
    `${tsdoc(text, '  ')}  ${name}<C extends RegisteredCollectionId>(${registered.join(', ')}): Promise<${result.replace(/<T>/g, '<CollectionItem<C>>')}>;\n` +
    `${tsdoc(`${text.split('\n')[0]} Typed by the item type \`T\` given (any collection ID).`, '  ')}  ${name}<T extends object = DefaultItem>(${typed.join(', ')}): Promise<${result}>;\n`
  );
}

/** Interfaces of the generated methods per namespace, and the list of their operationIds. */
export function emitNamespaces(doc: Doc, entries: OperationEntry[]): string {
  const exposed = entries.filter((e) => e.op['x-sitekit-args']);
  let out = '';
  const lists: string[] = [];
  // The operations bound with the client, each imported from its own module.
  const bound: string[] = [];
  for (const ns of NAMESPACES) {
    const mine = exposed.filter((e) => e.op.tags![0] === ns);
    out += `\n/** The \`${ns}\` methods generated from the schema. */\nexport interface ${pascal(ns)}Operations {\n`;
    for (const entry of mine) out += signature(doc, entry);
    out += '}\n';
    // Elevated operations are named only: their entries load on the first call (src/invoke.ts).
    const eager = mine.filter((e) => !e.op['x-sitekit-elevated']).map((e) => e.op.operationId);
    bound.push(...eager);
    const elevated = mine.filter((e) => e.op['x-sitekit-elevated']).map((e) => `'${e.op.operationId}'`);
    lists.push(`  ${ns}: { operations: [${eager.join(', ')}], elevated: [${elevated.join(', ')}] },`);
  }
  out += `\n/** The operations of the generated methods, per namespace. */\nexport const namespaceOperations: { readonly [ns: string]: NamespaceOperations } = {\n${lists.join('\n')}\n};\n`;
  const imports = `import type * as IO from './io.js';\n${/\bM\./.test(out) ? "import type * as M from './models.js';\n" : ''}${bound.map((id) => `import { ${id} } from './operations/${id}.js';\n`).join('')}${typeImport(out, ['CallOptions', 'Entity', 'Item'], '../src/types.js')}${typeImport(out, ['CollectionItem', 'DataItemOf', 'DefaultItem', 'InferableItem', 'ItemInput', 'ItemRef', 'RegisteredCollectionId', 'TypedCollectionId', 'WriteCollectionId', 'WriteResult', 'WrittenItem'], '../src/data/types.js')}${typeImport(out, ['NamespaceOperations'], '../src/operation.js')}`;
  return `${HEADER}/* Signatures of the SDK methods generated from x-sitekit-args, per namespace. */\n${imports}${out}`;
}
