/** Builds the `x-wix-bi-gateway` header that names the SDK and the method (empty values dropped). */
export function sdkHeader(methodFqn?: string, entity?: string): string {
  return Object.entries({ environment: 'js-sdk', 'package-name': 'sitekit', 'method-fqn': methodFqn, entity })
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}
