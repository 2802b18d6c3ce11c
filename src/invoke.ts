/**
 * Generic SDK methods: turns a method's public arguments into the operation's wire request (by
 * its x-sitekit-args), sends it, and returns the public-form result.
 */
import type { CallOptions } from './types.js';
import type { NamespaceOperations, Operation, OperationArgument, TransformNode } from './operation.js';
import { ElevationRequiredError, isApplicationError, isSiteKitError, RequestError } from './errors/index.js';
import type { Transport } from './http/transport.js';
import { invalid, isRecord, optionsObject, requireArray, requireObject, requireString } from './input.js';
import { loadOnFirstUse } from './lazy.js';
import { toPublic, toWire } from './wire/index.js';
import { readPath } from './request.js';

/** The transform node at a dotted wire path of a request tree. */
const nodeAt = (node: TransformNode | undefined, path: string): TransformNode | undefined =>
  readPath(node, path) as TransformNode | undefined;

/** Sets `value` at a dotted path; objects already there are merged (the deeper value wins). */
function place(target: Record<string, unknown>, path: string, value: unknown): void {
  let at = target;
  let last = path;
  if (path.includes('.')) {
    const keys = path.split('.');
    last = keys.pop()!;
    for (const key of keys)
      at = isRecord(at[key]) ? ((at[key] = { ...(at[key] as object) }) as Record<string, unknown>) : (at[key] = {});
  }
  at[last] = isRecord(value) && isRecord(at[last]) ? { ...(at[last] as object), ...value } : value;
}

/** How many steps a dotted path has. */
const depthOf = (path: string): number => path.split('.').length;

/** The call options of a call that gives none. */
const NO_CALL_OPTIONS: CallOptions = Object.freeze({});

/** Splits the per-call options (`signal`, `timeoutMs`) off an options object. */
export function splitCallOptions(options: unknown): { rest: Record<string, unknown>; call: CallOptions } {
  if (!isRecord(options)) return { rest: {}, call: NO_CALL_OPTIONS };
  const { signal, timeoutMs, ...rest } = options as Record<string, unknown> & CallOptions;
  return { rest, call: { signal, timeoutMs } };
}

/** The ID of an item reference: the string itself, or the item's `_id` (unchecked). */
export const itemIdOf = (value: unknown): unknown => (isRecord(value) ? value._id : value);

/**
 * The one input rule of generated methods: each argument checked against what the schema says it
 * must be (`OperationArgument.expects`), and turned into what the request carries. Bad input is a
 * `RequestError` `<method>: <argument> must be <expected>`, before any request.
 */
function checkedArgument(op: Operation, argument: OperationArgument, value: unknown): unknown {
  const { name, expects } = argument;
  switch (expects) {
    case 'string':
      return requireString(value, name, op.id);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : invalid(name, 'a finite number', op.id);
    case 'boolean':
      return typeof value === 'boolean' ? value : invalid(name, 'a boolean', op.id);
    case 'array':
      return requireArray(value, name, op.id);
    case 'item':
      return requireObject(value, name, op.id);
    case 'item-with-id':
      requireString(requireObject(value, name, op.id)._id, `${name}._id`, op.id);
      return value;
    case 'item-ref':
      return requireString(itemIdOf(value), name, op.id);
    case 'item-refs':
      return requireArray(value, name, op.id).map((element) => requireString(itemIdOf(element), name, op.id));
    default:
      // A filter builder argument is sent as its filter object.
      return typeof (value as { toFilter?: unknown })?.toFilter === 'function'
        ? (value as { toFilter(): unknown }).toFilter()
        : requireObject(value, name, op.id);
  }
}

/**
 * Builds the wire request from the public arguments of `op`'s method. Arguments are placed
 * shallow first, so a positional `member.id` wins over an `_id` inside `member`.
 */
export function requestFromArgs(
  op: Operation,
  args: readonly unknown[],
): { request: Record<string, unknown>; call: CallOptions } {
  const spec = op.args ?? [];
  let call: CallOptions | undefined;
  let rest: Record<string, unknown> | undefined;
  const placements: [string, unknown][] = [];
  let nested = false;
  for (let index = 0; index < spec.length; index++) {
    const argument = spec[index]!;
    const value = args[index];
    if (value == null) {
      if (argument.optional) continue;
      invalid(argument.name, 'given', op.id);
    }
    if (argument.expects === 'options') {
      const split = splitCallOptions(requireObject(value, argument.name, op.id));
      call = split.call;
      rest = toWire(split.rest, op.request) as Record<string, unknown>;
      continue;
    }
    const path = argument.path ?? argument.name;
    const checked = checkedArgument(op, argument, value);
    placements.push([path, op.request ? toWire(checked, nodeAt(op.request, path)) : checked]);
    nested ||= path.includes('.');
  }
  // Methods without an options argument take the call options after their arguments.
  const extra = args[spec.length];
  call ??= extra == null ? NO_CALL_OPTIONS : splitCallOptions(optionsObject(extra, 'options', op.id)).call;
  // Shallow first, so a deeper positional value (`member.id`) wins over one inside an object.
  const request: Record<string, unknown> = rest ? { ...rest } : {};
  if (nested) placements.sort((a, b) => depthOf(a[0]) - depthOf(b[0]));
  for (const [path, value] of placements) place(request, path, value);
  return { request, call };
}

/** Calls `op` with public arguments and returns its public-form (and unwrapped) result. */
export async function invoke(transport: Transport, op: Operation, args: readonly unknown[]): Promise<unknown> {
  let built: ReturnType<typeof requestFromArgs>;
  try {
    built = requestFromArgs(op, args);
  } catch (e) {
    // Arguments the transforms cannot walk (a cycle, a getter that throws) are bad input too.
    throw isSiteKitError(e) ? e : new RequestError(`${op.id}: invalid arguments (${(e as Error)?.message ?? e})`);
  }
  // (`return await`: one step where returning the promise itself takes three.)
  return await send(transport, op, built.request, built.call);
}

/** Sends a wire request for `op` and maps the response to public form (unwrapping, 404 → null). */
export async function send(
  transport: Transport,
  op: Operation,
  request: object,
  call: CallOptions = {},
): Promise<unknown> {
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

// Elevated operations need an API-key client, so only servers call them: their entries load on the first call.
const loadElevatedOperations = loadOnFirstUse(() => import('../generated/elevated-operations.js'));

/** Binds the generated methods of one namespace (its operations) to a transport. */
export function bindOperations<T>(
  transport: Transport,
  ops: NamespaceOperations = { operations: [], elevated: [] },
): T {
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const op of ops.operations) methods[op.id] = (...args) => invoke(transport, op, args);
  for (const id of ops.elevated)
    methods[id] = async (...args) => {
      // Refused before the chunk loads: a client that cannot call them never fetches them.
      if (!transport.elevated) throw new ElevationRequiredError(id);
      return invoke(transport, (await loadElevatedOperations())[id], args);
    };
  return methods as T;
}

/**
 * The wire request `sendPublic` sends: the caller's `options` minus `signal`/`timeoutMs` merged
 * under `request` (whose fields win), converted by the operation's request transform; and the
 * call options split off.
 */
export function wireRequest(
  operation: Operation,
  request: Record<string, unknown>,
  options?: unknown,
): { wire: Record<string, unknown>; call: CallOptions } {
  const { rest, call } = splitCallOptions(options);
  return { wire: toWire({ ...rest, ...request }, operation.request) as Record<string, unknown>, call };
}

/**
 * Sends `operation` with a request in the public form (see {@link wireRequest}). Resolves with
 * the public-form (and unwrapped) result.
 */
export async function sendPublic(
  transport: Transport,
  operation: Operation,
  request: Record<string, unknown>,
  options?: unknown,
): Promise<unknown> {
  const { wire, call } = wireRequest(operation, request, options);
  return await send(transport, operation, wire, call);
}
