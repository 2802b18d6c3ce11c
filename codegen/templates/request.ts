/**
 * The generic half of the typed request builders: turns an operation's request object into
 * `{method, path, query | body}`. Emitted into generated/ so generated code has no import from
 * src/ (dependencies point one way).
 */

/** HTTP methods used by the platform's APIs. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A transform tree, in wire field names: a leaf code, or an object of child nodes. Arrays are
 * transparent (a node applies to every element). `$e: 1` marks an entity root: below it, `id`,
 * `createdDate` and `updatedDate` are renamed `_id`, `_createdDate`, `_updatedDate` in the public
 * form. `*` applies to every property of a map. Leaf codes: `d` date-time, `f` NaN/Infinity float,
 * `m` field mask, `i` image, `v` video, `a` audio, `c` document reference, `I` data item,
 * `x` free-form item data (`$date` values).
 */
export type TransformNode = string | { readonly [field: string]: TransformNode | 1 | undefined };

/** One operation of the table, as emitted from the schema (short keys keep the bundle small). */
export interface Operation {
  /** operationId */
  readonly id: string;
  /** HTTP method */
  readonly m: HttpMethod;
  /** Real path; `{a.b}` placeholders name the request field (dotted wire path) they are read from. */
  readonly p: string;
  /**
   * `method-fqn` of the SDK header. Ending with `.`, it is the service prefix only and the method
   * is the PascalCase operationId (most operations; it keeps the bundle small): use `methodFqn`.
   */
  readonly f: string;
  /** `entity` of the SDK header. */
  readonly e?: string;
  /** Public signature: where each argument goes (see schema/README.md). */
  readonly a?: readonly string[];
  /** Response field the SDK method returns. */
  readonly u?: string;
  /** Needs an elevated client. */
  readonly el?: 1;
  /** A read-only POST (safe to retry). */
  readonly ro?: 1;
  /** The POST fallback of a long GET. */
  readonly fb?: Operation;
  /** Resolve `null` when the service answers with this application code (the entity is missing). */
  readonly nm?: string;
  /** Request transform tree. */
  readonly i?: TransformNode;
  /** Response transform tree. */
  readonly o?: TransformNode;
}

/** What a builder produces: everything the transport needs to send the call. */
export interface BuiltRequest {
  readonly op: Operation;
  readonly method: HttpMethod;
  /** The real path with its parameters filled in and URL-encoded. */
  readonly path: string;
  /** For GET and DELETE: the request minus its path parameters, still structured. */
  readonly query?: Record<string, unknown>;
  /** For POST, PUT and PATCH: the whole request object. */
  readonly body?: Record<string, unknown>;
}

/** Thrown by a builder when its input cannot make a request (e.g. a missing path parameter). */
export class RequestBuildError extends Error {
  override readonly name = 'RequestBuildError';
  constructor(
    message: string,
    /** The request field at fault (dotted wire path). */
    readonly field: string,
  ) {
    super(message);
  }
}

/** Per-call options accepted by every SDK method. */
export interface CallOptions {
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
  /** Time limit for this call in milliseconds, retries included; overrides the client's. */
  timeoutMs?: number;
}

type RenamedKey<K> = K extends 'id' ? '_id' : K extends 'createdDate' ? '_createdDate' : K extends 'updatedDate' ? '_updatedDate' : K;

/** Public form of an entity: `id`, `createdDate`, `updatedDate` become `_id`, ... at every depth. */
export type Entity<T> = T extends Date | string | number | boolean | bigint | symbol | null | undefined | ((...args: never[]) => unknown)
  ? T
  : T extends readonly (infer U)[]
    ? Entity<U>[]
    : { [K in keyof T as RenamedKey<K>]: Entity<T[K]> };

/** Public form of a data item: system fields plus the collection's own fields. */
export interface Item {
  _id?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  _owner?: string;
  [field: string]: unknown;
}

/** A request object as the wire types describe it: the JSON body, or the path and query parameters. */
export type WireRequest<O> = [BodyOf<O>] extends [never]
  ? O extends { parameters: { path?: infer P; query?: infer Q } }
    ? ParamsPart<P> & ParamsPart<Q>
    : Record<string, never>
  : BodyOf<O> extends { content: { 'application/json': infer B } }
    ? O extends { requestBody: unknown }
      ? B
      : B | undefined
    : never;

type BodyOf<O> = O extends { requestBody?: infer R } ? NonNullable<R> : never;
type ParamsPart<T> = [NonNullable<T>] extends [never] ? Record<never, never> : NonNullable<T>;

/** The `method-fqn` of an operation (see `Operation.f`). */
export const methodFqn = (op: Operation): string => (op.f.endsWith('.') ? op.f + op.id[0]!.toUpperCase() + op.id.slice(1) : op.f);

const PLACEHOLDER = /\{([^}]+)\}/g;
const HAS_BODY: Record<string, 1> = { POST: 1, PUT: 1, PATCH: 1 };

/** Reads a dotted path (`member.id`) from an object; `undefined` where any step is missing. */
export function readPath(source: unknown, path: string): unknown {
  let value = source;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Builds a request for `op` from its request object. Path parameters are read from the fields the
 * placeholders name; a missing or empty one throws `RequestBuildError`, never `/undefined`.
 */
export function buildRequest(op: Operation, input?: object | null): BuiltRequest {
  const request = (input ?? {}) as Record<string, unknown>;
  const topLevel: string[] = [];
  const path = op.p.replace(PLACEHOLDER, (_, field: string) => {
    const value = readPath(request, field);
    if (value === undefined || value === null || value === '' || typeof value === 'object') {
      throw new RequestBuildError(`${op.id}: missing path parameter "${field}"`, field);
    }
    if (!field.includes('.')) topLevel.push(field);
    return encodeURIComponent(String(value));
  });
  if (HAS_BODY[op.m]) return { op, method: op.m, path, body: request };
  const query: Record<string, unknown> = {};
  for (const key of Object.keys(request)) if (!topLevel.includes(key)) query[key] = request[key];
  return { op, method: op.m, path, query };
}
