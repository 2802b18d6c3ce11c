/** The leaf codes of the generated transform trees and their codecs (see `TransformNode`). */
import type { Codec } from './codec.js';
import { dateCodec } from './date.js';
import { fieldMaskCodec } from './field-mask.js';
import { floatCodec } from './float.js';
import { itemCodec } from './item.js';
import { itemDataCodec } from './item-data.js';
import { mediaCodec } from './media.js';

/** Leaf code → codec. An unknown code (a newer generator than this engine) leaves values unchanged. */
export const codecs: Readonly<Record<string, Codec>> = {
  d: dateCodec,
  f: floatCodec,
  m: fieldMaskCodec,
  i: mediaCodec('image'),
  v: mediaCodec('video'),
  a: mediaCodec('audio'),
  c: mediaCodec('document'),
  I: itemCodec,
  x: itemDataCodec,
};
