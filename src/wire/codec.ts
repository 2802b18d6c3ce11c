/** The shape every leaf codec of the transform trees shares. */

/**
 * A leaf codec: `[toWire, toPublic]`. Both are total: a value a codec cannot convert is returned
 * unchanged, never thrown on, because a response must not fail over one odd field. The tuple
 * (rather than an object of named functions) lets the walker index it by direction.
 */
export type Codec = readonly [toWire: (value: unknown) => unknown, toPublic: (value: unknown) => unknown];
