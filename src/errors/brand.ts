/**
 * Marks every sitekit error, independently of which copy of the package created it.
 *
 * `Symbol.for` returns the same symbol across module instances (ESM and CJS builds loaded
 * side by side, or two versions in one bundle), where `instanceof` would fail, so the
 * guards in `guards.ts` can still recognise an error thrown by the other copy.
 *
 * @internal
 */
export const SITEKIT_ERROR_BRAND: unique symbol = Symbol.for('sitekit.error');
