/**
 * The transform engine: walks a value alongside a generated transform tree (`TransformNode`, keyed
 * by wire field names) and converts between the public form and the wire form in one pass, with the
 * leaf codecs of the trees and their table. (One module: in a bundle every module costs its own
 * wrapper.)
 */
import type { TransformBranch, TransformCode, TransformNode } from '../operation.js';
import type { Codec } from './codec.js';
import { dateCodec, formatDate, parseDate } from './date.js';
import { mediaCodecs } from './media.js';
import { isPlainObject, mapArray, mapEntries, type PlainObject } from './plain.js';
import { RequestError } from '../errors/index.js';

// ---------------------------------------------------------------------------------------------
// Codec `float`: floats that may be NaN or ±Infinity, which JSON cannot carry as numbers.

/**
 * Non-finite numbers ↔ `"NaN"`, `"Infinity"`, `"-Infinity"`; finite numbers as they are.
 * `String`/`Number` convert exactly these three spellings both ways.
 */
export const floatCodec: Codec = {
  toWire: (value) => (typeof value == 'number' && !Number.isFinite(value) ? `${value}` : value),
  toPublic: (value) => (['NaN', 'Infinity', '-Infinity'].includes(value as string) ? Number(value) : value),
};

// ---------------------------------------------------------------------------------------------
// Codec `fieldMask`: field masks, a list of paths in the public form and one comma-joined string on the wire.

/** True for an array of strings only: the one public shape a field mask can have. */
export const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((path) => typeof path == 'string');

/** `string[]` ↔ `"a,b.c"`; `[]` ↔ `""`. */
export const fieldMaskCodec: Codec = {
  toWire: (value) => (isStringArray(value) ? value.join(',') : value),
  toPublic: (value) => (typeof value == 'string' ? (value ? value.split(',') : []) : value),
};

// ---------------------------------------------------------------------------------------------
// Codec `itemData`: free-form item data (item fields, filters, aggregate rows, patch values), where dates
// travel as `{"$date": "<ISO-8601>"}` because the JSON carries no schema to say which strings are dates.

/** `map` applied to every element of an array or property value of a plain object; else `value`. */
const deep = (value: unknown, map: (value: unknown) => unknown): unknown =>
  Array.isArray(value)
    ? mapArray(value, map)
    : isPlainObject(value)
      ? mapEntries(value, (key, v) => [key, map(v)])
      : value;

/** What JSON cannot carry in item data: `NaN`, `±Infinity` (they would become `null`) and invalid dates. */
const unsendable = (value: unknown): string | undefined =>
  typeof value == 'number' && !Number.isFinite(value)
    ? `${value}`
    : value instanceof Date && Number.isNaN(value.getTime())
      ? 'an invalid Date'
      : undefined;

/** The path (`rating`, `tags[2]`, `$and[0].year.$gt`) of the first value JSON cannot carry, or undefined. */
function unsendablePath(value: unknown, path: string): { path: string; problem: string } | undefined {
  const problem = unsendable(value);
  if (problem) return { path, problem };
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((element, index) => [`${path}[${index}]`, element])
    : isPlainObject(value)
      ? Object.entries(value).map(([key, element]) => [path ? `${path}.${key}` : key, element])
      : [];
  for (const [childPath, child] of entries) {
    const found = unsendablePath(child, childPath);
    if (found) return found;
  }
  return undefined;
}

/** Deep copy of `value` along the paths that hold a `Date`, each replaced by `{$date: iso}`; throws on a value JSON cannot carry. */
const encodeValue = (value: unknown): unknown => {
  const iso = formatDate(value);
  if (iso) return { $date: iso };
  if (unsendable(value)) throw UNSENDABLE;
  return deep(value, encodeValue);
};

/** Thrown by {@link encodeValue} up to {@link encodeItemData}, which names the field. */
const UNSENDABLE = Symbol('unsendable');

/**
 * Deep copy of `value` along the paths that hold a `Date`, each replaced by `{$date: iso}`. A
 * `NaN`, `±Infinity` or invalid `Date` anywhere is refused with a `RequestError` naming its field:
 * JSON would silently turn it into `null`.
 */
export const encodeItemData = (value: unknown): unknown => {
  try {
    return encodeValue(value);
  } catch (error) {
    if (error !== UNSENDABLE) throw error;
    const { path, problem } = unsendablePath(value, '')!;
    const field = path || 'value';
    throw new RequestError(`${field} is ${problem}: item data and filters travel as JSON, which cannot carry it`, {
      field,
    });
  }
};

/**
 * Deep copy of `value` along the paths that hold an object that is exactly `{$date: string}`, each
 * replaced by a `Date`. One that does not parse stays an object: data is never dropped.
 */
export const decodeItemData = (value: unknown): unknown =>
  (isPlainObject(value) &&
    typeof value.$date == 'string' &&
    Object.keys(value).length == 1 &&
    parseDate(value.$date)) ||
  deep(value, decodeItemData);

/** `Date` ↔ `{$date: iso}` at any depth. */
export const itemDataCodec: Codec = { toWire: encodeItemData, toPublic: decodeItemData };

// ---------------------------------------------------------------------------------------------
// Codec `item`: one data item. Public `{_id, _createdDate, _updatedDate, _owner, ...fields}` ↔ wire
// `{id, data: {_id, ...fields}}` (responses add `dataCollectionId`), with item-data dates.

/** Wire form of an item: all public fields go in `data`; `id` only when `_id` is known (inserts may omit it). */
export const encodeItem = (value: unknown): unknown =>
  isPlainObject(value) ? { ...(value._id != null && { id: value._id }), data: encodeItemData(value) } : value;

/**
 * Public form of a wire item: its decoded `data`, with `_id` taken from `id` when `data` lacks it
 * (the service may answer with the id only beside the data).
 */
export const decodeItem = (value: unknown): unknown => {
  if (!isPlainObject(value)) return value;
  const data = decodeItemData(isPlainObject(value.data) ? value.data : {}) as PlainObject;
  return data._id === undefined && value.id != null ? { ...data, _id: value.id } : data;
};

/** Public item ↔ `{id, data}`. */
export const itemCodec: Codec = { toWire: encodeItem, toPublic: decodeItem };

// ---------------------------------------------------------------------------------------------

/** Leaf code → codec (the media reference codecs `image`, `video`, `audio`, `document` are in ./media.ts). An unknown code (a newer generator than this engine) leaves values unchanged. */
export const codecs: Readonly<Record<string, Codec>> = {
  date: dateCodec,
  float: floatCodec,
  fieldMask: fieldMaskCodec,
  ...mediaCodecs,
  item: itemCodec,
  itemData: itemDataCodec,
  // A filter over an entity's fields: the entity renames at every depth (`_id` ↔ `id`...).
  entityFilter: {
    toWire: (value) => walk(value, ENTITY, 'toWire'),
    toPublic: (value) => walk(value, ENTITY, 'toPublic'),
  },
} satisfies Record<TransformCode, Codec>;

/** The tree of a value that is an entity root and nothing else. */
const ENTITY: TransformNode = { $entity: true };

// ---------------------------------------------------------------------------------------------
// The engine.

/** Which way a value is converted: the name of the codec function that does it. */
type Direction = keyof Codec;

/** Entity system fields: each wire name and its public name (wire `id` is public `_id`, and so on). */
const SYSTEM_FIELDS: readonly (readonly [wire: string, publicName: string])[] = [
  ['id', '_id'],
  ['createdDate', '_createdDate'],
  ['updatedDate', '_updatedDate'],
];
// Looked up in maps, not objects, so a key such as `constructor` never reaches Object.prototype.
const PUBLIC_NAME_OF = new Map(SYSTEM_FIELDS);
const WIRE_NAME_OF = new Map(SYSTEM_FIELDS.map(([wire, publicName]) => [publicName, wire]));

/** The child node for a wire key: its own entry, else the map's `$values` entry; `$entity` is a flag, not a node. */
const child = (node: TransformBranch | undefined, key: string): TransformNode | undefined => {
  const next = node && (Object.hasOwn(node, key) ? node[key] : node.$values);
  return next === true ? undefined : next;
};

/** One recursive pass: `node` is the tree at this depth, `inEntity` whether an `$entity` root is above. */
function walk(value: unknown, node: TransformNode | undefined, direction: Direction, inEntity?: boolean): unknown {
  const towardPublic = direction === 'toPublic';
  // A field mask's public form is itself an array, so the mask leaf takes a whole string array
  // (toWire) instead of seeing arrays as transparent like every other node does.
  if (Array.isArray(value) && (node != 'fieldMask' || towardPublic || !isStringArray(value))) {
    return mapArray(value, (element) => walk(element, node, direction, inEntity));
  }
  if (typeof node == 'string') {
    const codec = codecs[node];
    return codec ? codec[direction](value) : value;
  }
  // Outside entities only the tree is followed; inside one, every plain object is walked for renames.
  if (!isPlainObject(value) || !(node || inEntity)) return value;
  const entity = inEntity || node?.$entity === true;
  return mapEntries(value, (key, v) => {
    // The key's name in the other form when renames apply (inside an entity), else the key itself.
    const renamed = entity ? ((towardPublic ? PUBLIC_NAME_OF : WIRE_NAME_OF).get(key) ?? key) : key;
    // Both spellings present (`{_id, id}`): the one already in the target form wins.
    return renamed !== key && Object.hasOwn(value, renamed)
      ? undefined
      : [renamed, walk(v, child(node, towardPublic ? key : renamed), direction, entity)];
  });
}

/**
 * Converts a public-form value (what SDK users pass) to the wire form by the transform tree `node`
 * (an operation's `request` tree, or a subtree of it). The input is never mutated: new objects are built along
 * the changed paths and unchanged subtrees are shared. Values no codec can handle pass unchanged.
 */
export const toWire = (value: unknown, node: TransformNode | undefined): unknown => walk(value, node, 'toWire');

/**
 * Converts a wire-form value (JSON from the service) to the public form by the transform tree
 * `node` (an operation's `response` tree, or a subtree of it). Same guarantees as {@link toWire}.
 */
export const toPublic = (value: unknown, node: TransformNode | undefined): unknown => walk(value, node, 'toPublic');
