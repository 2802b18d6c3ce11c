const cache = new Map<string, string>();

/**
 * The `x-wix-bi-gateway` header that names the SDK and the method (empty values dropped).
 * Memoised: it is the same for every call of one operation.
 */
export function sdkHeader(methodFqn?: string, entity?: string): string {
  const key = `${methodFqn}|${entity}`;
  let value = cache.get(key);
  if (value === undefined) {
    value = 'environment=js-sdk,package-name=sitekit' + (methodFqn ? `,method-fqn=${methodFqn}` : '') + (entity ? `,entity=${entity}` : '');
    cache.set(key, value);
  }
  return value;
}
