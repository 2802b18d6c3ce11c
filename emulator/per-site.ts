/**
 * What each site keeps in memory beside its store (its request log, fault rules, rate-limit
 * windows, media directories): made at the site's first use, and gone with its context.
 */
import type { EmulatorContext } from './service.js';

/**
 * The site's own value, made by `make` the first time a site asks for it, then the same one for
 * that site: a site removed takes its value with it (a `WeakMap` on its context).
 */
export function perSite<Value>(make: (context: EmulatorContext) => Value): (context: EmulatorContext) => Value {
  const values = new WeakMap<EmulatorContext, Value>();
  return (context) => {
    let value = values.get(context);
    if (value === undefined) {
      value = make(context);
      values.set(context, value);
    }
    return value;
  };
}
