/** The `x-wix-bi-gateway` header that names the SDK and the method (empty values dropped). */
export const sdkHeader = (methodFqn?: string, entity?: string): string =>
  'environment=js-sdk,package-name=sitekit-sdk' +
  (methodFqn ? ',method-fqn=' + methodFqn : '') +
  (entity ? ',entity=' + entity : '');
