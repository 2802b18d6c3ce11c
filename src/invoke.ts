/**
 * Generic SDK methods: turns a method's public arguments into the operation's wire request (by
 * its x-sitekit-args), sends it, and returns the public-form result.
 */
import type { CallOptions } from './types.js';
import type { Operation, TransformNode } from './operation.js';
import { isApplicationError, isSiteKitError, RequestError } from './errors/index.js';
import type { Transport } from './http/transport.js';
import { isRecord as isObject } from './input.js';
import { toPublic, toWire } from './wire/index.js';

/** The transform node at a dotted wire path of a request tree. */
function nodeAt(node: TransformNode | undefined, path: string): TransformNode | undefined {
  for (const key of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[key] as TransformNode | undefined;
  }
  return node;
}

/** Sets `value` at a dotted path; objects already there are merged (the deeper value wins). */
function place(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  let at = target;
  for (const key of keys) at = isObject(at[key]) ? (at[key] = { ...(at[key] as object) }) as Record<string, unknown> : (at[key] = {});
  at[last] = isObject(value) && isObject(at[last]) ? { ...(at[last] as object), ...value } : value;
}

/** Splits the per-call options (`signal`, `timeoutMs`) off an options object. */
export function splitCallOptions(options: unknown): { rest: Record<string, unknown>; call: CallOptions } {
  if (!isObject(options)) return { rest: {}, call: {} };
  const { signal, timeoutMs, ...rest } = options as Record<string, unknown> & CallOptions;
  return { rest, call: { signal, timeoutMs } };
}

/**
 * Builds the wire request from the public arguments of `op`'s method. Arguments are placed
 * shallow first, so a positional `member.id` wins over an `_id` inside `member`.
 */
export function requestFromArgs(op: Operation, args: readonly unknown[]): { request: Record<string, unknown>; call: CallOptions } {
  const spec = op.args ?? [];
  let call: CallOptions | undefined;
  let rest: unknown;
  const placements: [string, unknown][] = [];
  for (let n = 0; n < spec.length; n++) {
    const raw = spec[n]!;
    const value = args[n];
    if (raw[0] === '.') {
      if (value !== undefined && !isObject(value)) throw new RequestError(`${op.id}: ${raw.slice(3)} must be an object`, { field: raw.slice(3) });
      if (value === undefined && raw === '...request') throw new RequestError(`${op.id}: request is required`, { field: 'request' });
      const split = splitCallOptions(value);
      call = split.call;
      rest = toWire(split.rest, op.request);
      continue;
    }
    const optional = raw.endsWith('?');
    const path = optional ? raw.slice(0, -1) : raw;
    if (value === undefined || value === null) {
      if (optional) continue;
      throw new RequestError(`${op.id}: argument "${path}" is required`, { field: path });
    }
    // A filter builder argument is sent as its filter object.
    const argument = typeof (value as { toFilter?: unknown }).toFilter === 'function' ? (value as { toFilter(): unknown }).toFilter() : value;
    placements.push([path, toWire(argument, nodeAt(op.request, path))]);
  }
  call ??= splitCallOptions(args[spec.length]).call;
  // Shallow first, so a deeper positional value (`member.id`) wins over one inside an object.
  const request: Record<string, unknown> = rest ? { ...(rest as object) } : {};
  if (placements.length > 1) placements.sort((a, b) => a[0].split('.').length - b[0].split('.').length);
  for (const [path, value] of placements) place(request, path, value);
  return { request, call };
}

/** Calls `op` with public arguments and returns its public-form (and unwrapped) result. */
export async function invoke(transport: Transport, op: Operation, args: readonly unknown[]): Promise<unknown> {
  let built;
  try {
    built = requestFromArgs(op, args);
  } catch (e) {
    // Arguments the transforms cannot walk (a cycle, a getter that throws) are bad input too.
    throw isSiteKitError(e) ? e : new RequestError(`${op.id}: invalid arguments (${(e as Error)?.message ?? e})`);
  }
  return send(transport, op, built.request, built.call);
}

/** Sends a wire request for `op` and maps the response to public form (unwrapping, 404 → null). */
export async function send(transport: Transport, op: Operation, request: object, call: CallOptions = {}): Promise<unknown> {
  let response: unknown;
  try {
    response = await transport.send(op, request, call);
  } catch (e) {
    // Missing means exactly this application code: any other 404 (no such collection, a wrong
    // base URL's page) still throws.
    if (op.nullIfMissing && isApplicationError(e) && e.code === op.nullIfMissing) return null;
    throw e;
  }
  const result = toPublic(response ?? {}, op.response) as Record<string, unknown>;
  if (!op.unwrap) return result;
  return result[op.unwrap] ?? (op.nullIfMissing ? null : undefined);
}

/** Binds the generated methods of one namespace (its operations) to a transport. */
export function bindOperations<T>(transport: Transport, ops: readonly Operation[] = []): T {
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const op of ops) methods[op.id] = (...args) => invoke(transport, op, args);
  return methods as T;
}

/**
 * Sends `operation` with a request in the public form: the caller's `options` minus
 * `signal`/`timeoutMs` merged under `request` (whose fields win), converted by the operation's
 * request transform. Resolves with the public-form (and unwrapped) result.
 */
export function sendPublic(transport: Transport, operation: Operation, request: Record<string, unknown>, options?: unknown): Promise<unknown> {
  const { rest, call } = splitCallOptions(options);
  return send(transport, operation, toWire({ ...rest, ...request }, operation.request) as object, call);
}
