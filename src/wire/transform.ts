/**
 * The transform engine: walks a value alongside a generated transform tree (`TransformNode`, keyed
 * by wire field names) and converts between the public form and the wire form in one pass.
 */
import type { TransformNode } from '../../generated/request.js';
import { codecs } from './codecs.js';
import { isStringArray } from './field-mask.js';
import { isPlainObject, mapArray, mapEntries } from './plain.js';

/** Index into a `Codec` tuple: 0 toWire, 1 toPublic. */
type Direction = 0 | 1;

// Entity system fields: wire `id` is public `_id`, and so on. A Set, not an object map, so keys
// such as `constructor` never hit Object.prototype.
const SYSTEM = new Set(['id', 'createdDate', 'updatedDate']);

/** The key's name in the other form when renames apply (inside an entity), else the key itself. */
const rename = (key: string, dir: Direction): string =>
  dir ? (SYSTEM.has(key) ? `_${key}` : key) : key[0] === '_' && SYSTEM.has(key.slice(1)) ? key.slice(1) : key;

/** The child node for a wire key: its own entry, else the `*` map entry; `$e: 1` is a flag, not a node. */
function child(node: TransformNode | undefined, key: string): TransformNode | undefined {
  if (typeof node !== 'object') return undefined;
  const next = Object.hasOwn(node, key) ? node[key] : node['*'];
  return typeof next === 'number' ? undefined : next;
}

/** One recursive pass: `node` is the tree at this depth, `inEntity` whether an `$e` root is above. */
function walk(value: unknown, node: TransformNode | undefined, inEntity: boolean, dir: Direction): unknown {
  // A field mask's public form is itself an array, so the mask leaf takes a whole string array
  // (toWire) instead of seeing arrays as transparent like every other node does.
  if (Array.isArray(value) && !(node === 'm' && !dir && isStringArray(value))) {
    return mapArray(value, (element) => walk(element, node, inEntity, dir));
  }
  if (typeof node === 'string') {
    const codec = codecs[node];
    return codec ? codec[dir](value) : value;
  }
  // Outside entities only the tree is followed; inside one, every plain object is walked for renames.
  if (!isPlainObject(value) || !(node || inEntity)) return value;
  const entity = inEntity || node?.$e === 1;
  return mapEntries(value, (key, v) => {
    const renamed = entity ? rename(key, dir) : key;
    // Both spellings present (`{_id, id}`): the one already in the target form wins.
    if (renamed !== key && Object.hasOwn(value, renamed)) return undefined;
    return [renamed, walk(v, child(node, dir ? key : renamed), entity, dir)];
  });
}

/**
 * Converts a public-form value (what SDK users pass) to the wire form by the transform tree `node`
 * (an operation's `i`, or a subtree of it). The input is never mutated: new objects are built along
 * the changed paths and unchanged subtrees are shared. Values no codec can handle pass unchanged.
 */
export function toWire(value: unknown, node: TransformNode | undefined): unknown {
  return walk(value, node, false, 0);
}

/**
 * Converts a wire-form value (JSON from the service) to the public form by the transform tree
 * `node` (an operation's `o`, or a subtree of it). Same guarantees as {@link toWire}.
 */
export function toPublic(value: unknown, node: TransformNode | undefined): unknown {
  return walk(value, node, false, 1);
}
