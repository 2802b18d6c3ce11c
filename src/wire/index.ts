/** Public form ↔ wire form, driven by the generated transform trees. */
export { toPublic, toWire } from './transform.js';
export { codecs } from './codecs.js';
export type { Codec } from './codec.js';
export { dateCodec, formatDate, parseDate } from './date.js';
export { floatCodec } from './float.js';
export { fieldMaskCodec, isStringArray } from './field-mask.js';
export {
  formatMediaRef,
  IMAGE_URL_PREFIX,
  mediaCodec,
  parseMediaRef,
  type MediaKind,
  type MediaObject,
  type MediaPoster,
} from './media.js';
export { decodeItemData, encodeItemData, itemDataCodec } from './item-data.js';
export { decodeItem, encodeItem, itemCodec } from './item.js';
export { isPlainObject, type PlainObject } from './plain.js';
