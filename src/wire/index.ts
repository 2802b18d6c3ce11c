/** Public form ↔ wire form, driven by the generated transform trees. */
export { toPublic, toWire } from './transform.js';
export type { Codec } from './codec.js';
export { dateCodec, formatDate, parseDate } from './date.js';
export {
  codecs,
  decodeItem,
  decodeItemData,
  encodeItem,
  encodeItemData,
  fieldMaskCodec,
  floatCodec,
  isStringArray,
  itemCodec,
  itemDataCodec,
} from './transform.js';
export {
  formatMediaRef,
  IMAGE_URL_PREFIX,
  mediaCodec,
  mediaCodecs,
  parseMediaRef,
  type MediaKind,
  type MediaObject,
  type MediaPoster,
} from './media.js';
export { isPlainObject, type PlainObject } from './plain.js';
