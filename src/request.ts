/**
 * The generic half of the typed request builders: turns an operation's request object into
 * `{method, path, query | body}`. The generated builders call it with the operation they name.
 */
import type { HttpMethod, Operation } from './operation.js';

/** What a builder produces: everything the transport needs to send the call. */
export interface BuiltRequest {
  readonly operation: Operation;
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

/** A path template's placeholder (`{dataItemId}`, `{member.id}`), its field name captured. */
const PLACEHOLDER = /\{([^}]+)\}/;
const METHODS_WITH_BODY: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH']);

/** Reads a dotted path (`member.id`) from an object; `undefined` where any step is missing. */
export function readPath(source: unknown, path: string): unknown {
  if (!path.includes('.'))
    return source !== null && typeof source === 'object' ? (source as Record<string, unknown>)[path] : undefined;
  let value = source;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Path templates split at their placeholders, once each: text at even indexes, field names at odd ones. */
const templates = new Map<string, string[]>();

/**
 * Builds a request for `operation` from its request object. Path parameters are read from the
 * fields the placeholders name; a missing or empty one throws `RequestBuildError`, never `/undefined`.
 */
export function buildRequest(operation: Operation, input?: object | null): BuiltRequest {
  const request = (input ?? {}) as Record<string, unknown>;
  let parts = templates.get(operation.path);
  if (!parts) templates.set(operation.path, (parts = operation.path.split(PLACEHOLDER)));
  const pathFields: string[] = [];
  let path = parts[0]!;
  for (let index = 1; index < parts.length; index += 2) {
    const field = parts[index]!;
    const value = readPath(request, field);
    if (value === undefined || value === null || value === '' || typeof value === 'object') {
      throw new RequestBuildError(`${operation.id}: missing path parameter "${field}"`, field);
    }
    // `.` and `..` (escaped or not) are dot segments to every URL parser: the call, credentials
    // and all, would go to another endpoint.
    if (value === '.' || value === '..')
      throw new RequestBuildError(`${operation.id}: path parameter "${field}" cannot be "${value}"`, field);
    if (!field.includes('.')) pathFields.push(field);
    path += encodeURIComponent(String(value)) + parts[index + 1];
  }
  const { method } = operation;
  if (METHODS_WITH_BODY.has(method)) return { operation, method, path, body: request };
  const query: Record<string, unknown> = {};
  for (const key of Object.keys(request)) if (!pathFields.includes(key)) query[key] = request[key];
  return { operation, method, path, query };
}
