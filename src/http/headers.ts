import type { Operation } from '../operation.js';

/** The `x-wix-bi-gateway` header that names the SDK and the method (empty values dropped). */
export const sdkHeader = (methodFqn?: string, entity?: string): string =>
  'environment=js-sdk,package-name=sitekit-sdk' +
  (methodFqn ? ',method-fqn=' + methodFqn : '') +
  (entity ? ',entity=' + entity : '');

/** Each operation's header, made once: one string per call site, not a new joined one per call. */
const operationHeaders = new WeakMap<Operation, string>();

/** The `x-wix-bi-gateway` header of an operation's calls. */
export function operationSdkHeader(operation: Operation): string {
  let header = operationHeaders.get(operation);
  if (header === undefined)
    operationHeaders.set(operation, (header = sdkHeader(operation.methodFqn, operation.entity)));
  return header;
}
