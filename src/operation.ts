/**
 * The shape of the generated operation table: everything that differs from one operation to the
 * next, as data. The code generator emits one `Operation` per operation of the schema; the
 * generic runtime (the transport, the method binder, the transforms) reads nothing else.
 */

import type { ElevatedOperationId } from '../generated/elevated-operation-ids.js';

/** HTTP methods used by the platform's APIs. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a leaf of a transform tree converts:
 * - `date`: `Date` ↔ ISO-8601 string;
 * - `float`: a number that may be `NaN`/`±Infinity` ↔ a number or `"NaN"`, `"Infinity"`, `"-Infinity"`;
 * - `fieldMask`: `string[]` ↔ `"a,b.c"`;
 * - `image`, `video`, `audio`, `document`: a `wix:<kind>://v1/...` reference string ↔ a media object;
 * - `item`: a public data item ↔ `{id, data}`;
 * - `itemData`: free-form item data (`Date` ↔ `{$date: iso}` at any depth);
 * - `entityFilter`: a filter over an entity's fields (`_id` ↔ `id`... as keys at any depth).
 */
export type TransformCode =
  | 'date'
  | 'float'
  | 'fieldMask'
  | 'image'
  | 'video'
  | 'audio'
  | 'document'
  | 'item'
  | 'itemData'
  | 'entityFilter';

/**
 * A transform tree, in wire field names: a leaf code, or an object of child nodes. Arrays are
 * transparent (a node applies to every element). Two markers:
 * - `$entity: true` marks an entity root: below it, `id`, `createdDate` and `updatedDate` are
 *   `_id`, `_createdDate`, `_updatedDate` in the public form;
 * - `$values` is the node for every property of a map (a schema's `additionalProperties`).
 */
export type TransformNode = TransformCode | TransformBranch;

/** An inner node of a transform tree: child nodes by wire field name, plus the markers. */
export interface TransformBranch {
  readonly $entity?: true;
  readonly $values?: TransformNode;
  readonly [field: string]: TransformNode | true | undefined;
}

/**
 * What an argument must be: a JSON type of the schema, a data item (`item`; `item-with-id` when
 * the call needs its `_id`), an item ID or an item with `_id` (`item-ref`, a list: `item-refs`),
 * or the options object merged at the top level of the request (`options`).
 */
export type ArgumentType =
  | 'string'
  | 'number'
  | 'boolean'
  | 'object'
  | 'array'
  | 'item'
  | 'item-with-id'
  | 'item-ref'
  | 'item-refs'
  | 'options';

/** One argument of an SDK method generated from the schema. */
export interface OperationArgument {
  /** Its name in signatures and error messages. */
  readonly name: string;
  /** The dotted wire path it goes to, when that is not its name; the options object has none. */
  readonly path?: string;
  /** What it must be; anything else is refused with a `RequestError` before any request. */
  readonly expects: ArgumentType;
  /** Whether it may be left out (`undefined` or `null`). */
  readonly optional?: true;
}

/** One operation of the table, as emitted from the schema (see schema/README.md). */
export interface Operation {
  /** The schema's operationId. */
  readonly id: string;
  readonly method: HttpMethod;
  /** The real path; `{a.b}` placeholders name the request field (dotted wire path) they are read from. */
  readonly path: string;
  /** `method-fqn` of the SDK header (`x-wix-bi-gateway`). */
  readonly methodFqn: string;
  /** `entity` of the SDK header. */
  readonly entity?: string;
  /** The SDK method's arguments, in order: where each goes and what it must be (see schema/README.md). */
  readonly args?: readonly OperationArgument[];
  /** The response field the SDK method returns instead of the whole response. */
  readonly unwrap?: string;
  /** Needs an elevated (API-key) client. */
  readonly elevated?: true;
  /** A POST that only reads: safe to retry. */
  readonly readOnly?: true;
  /** The POST operation to use when this GET's query string would be too long. */
  readonly fallback?: Operation;
  /** Resolve `null` when the service answers with this application code (the entity is missing). */
  readonly nullIfMissing?: string;
  /** Transform tree of the request object. */
  readonly request?: TransformNode;
  /** Transform tree of the response object. */
  readonly response?: TransformNode;
}

/**
 * The operations of one namespace's generated methods. Those that need an elevated (API-key)
 * client are named only: only servers call them, so their entries load on the first call.
 */
export interface NamespaceOperations {
  /** The operations whose entries load with the client. */
  readonly operations: readonly Operation[];
  /** The ids of the elevated operations (generated/elevated-operations.ts loads them). */
  readonly elevated: readonly ElevatedOperationId[];
}
