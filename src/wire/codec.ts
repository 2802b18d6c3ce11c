/** The shape every leaf codec of the transform trees shares. */

/**
 * A leaf codec: the conversion of one kind of value in both directions. Both are total on what
 * the service sends: a value a codec cannot convert is returned unchanged, never thrown on,
 * because a response must not fail over one odd field. (Converting the caller's input, a codec
 * may refuse a value the wire cannot carry, with a `RequestError`.)
 */
export interface Codec {
  /** Public form (what SDK users pass) → wire form. */
  readonly toWire: (value: unknown) => unknown;
  /** Wire form (what the service sends) → public form. */
  readonly toPublic: (value: unknown) => unknown;
}
