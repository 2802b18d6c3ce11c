/**
 * Codecs `i` `v` `a` `c`: media references, `wix:<kind>://v1/<id>/<filename>#...` scheme strings in
 * the public form and `{id, url, height, width, filename, altText}` objects on the wire.
 */
import type { Codec } from './codec.js';
import { isPlainObject } from './plain.js';

/** The kinds of media reference, as spelled in the scheme string. */
export type MediaKind = 'image' | 'video' | 'audio' | 'document';

/** A poster image of a video: `thumbnail` of a reference, or an entry of a media file's `posters`. */
export interface MediaPoster {
  id?: string;
  url?: string;
  width?: number;
  height?: number;
}

/** Wire form of a media reference (the fields a scheme string can carry, plus what decoding reads). */
export interface MediaObject {
  id?: string;
  url?: string;
  height?: number;
  width?: number;
  filename?: string;
  altText?: string;
  /** Video poster, on references. */
  thumbnail?: MediaPoster;
  /** Video posters, on full video objects of the media API; the first one is used. */
  posters?: readonly MediaPoster[];
}

/** Where images are served from; the wire `url` of an image made from a scheme string. */
export const IMAGE_URL_PREFIX = 'https://static.wixstatic.com/media/';

// The id stops at `/`; the filename takes the rest up to the fragment, so a hand-written
// filename with a raw `/` still parses.
const SCHEME = /^wix:(image|video|audio|document):\/\/v1\/([^/#]+)\/([^#]*)(?:#(.*))?$/s;

// The only characters that would break the fragment's `k=v&k=v` syntax; escaping just these keeps
// a media-id poster (`abc_f000.jpg`) readable as in the platform's own strings.
const escapeParam = (value: string): string => value.replace(/[%&#=+\s]/g, encodeURIComponent);

const number = (text: string | null): number | undefined => {
  const n = text ? Number(text) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** Copy of `object` without its `undefined` values, so absent parts stay absent keys. */
const defined = <T extends object>(object: T): T =>
  Object.fromEntries(Object.entries(object).filter((entry) => entry[1] !== undefined)) as T;

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // A stray `%` in a hand-written string: keep it literal.
  }
};

/**
 * Parses a scheme string into its kind and wire object; `undefined` when `value` is not one. An
 * image gets `url` (served from {@link IMAGE_URL_PREFIX}) and its origin size; a video gets its
 * poster as `thumbnail`.
 */
export function parseMediaRef(value: unknown): { kind: MediaKind; media: MediaObject } | undefined {
  const match = typeof value === 'string' ? SCHEME.exec(value) : null;
  if (!match) return undefined;
  const [, kind, id = '', file = '', fragment] = match;
  const params = new URLSearchParams(fragment);
  const filename = decode(file) || undefined;
  const media: MediaObject =
    kind === 'image'
      ? { id, url: IMAGE_URL_PREFIX + id, height: number(params.get('originHeight')), width: number(params.get('originWidth')), filename }
      : { id, filename };
  const posterUri = params.get('posterUri');
  if (kind === 'video' && posterUri) {
    media.thumbnail = defined({ url: posterUri, width: number(params.get('posterWidth')), height: number(params.get('posterHeight')) });
  }
  return { kind: kind as MediaKind, media: defined(media) };
}

/**
 * Formats a wire media object as a `kind` scheme string; `undefined` when it has no id. The video
 * poster comes from `thumbnail`, else from `posters[0]` (its media id, else its url). Absent sizes
 * are left out of the fragment rather than written as `undefined`.
 */
export function formatMediaRef(kind: MediaKind, media: MediaObject): string | undefined {
  if (typeof media.id !== 'string' || !media.id) return undefined;
  const first = media.posters?.[0];
  const poster = media.thumbnail ?? (first && { ...first, url: first.id ?? first.url });
  const params: [string, unknown][] =
    kind === 'image'
      ? [['originWidth', media.width], ['originHeight', media.height]]
      : kind === 'video'
        ? [['posterUri', poster?.url], ['posterWidth', poster?.width], ['posterHeight', poster?.height]]
        : [];
  const fragment = params
    .filter((param) => param[1] != null && param[1] !== '')
    .map(([key, v]) => `${key}=${escapeParam(String(v))}`)
    .join('&');
  const ref = `wix:${kind}://v1/${media.id}/${encodeURIComponent(String(media.filename ?? ''))}`;
  return fragment ? `${ref}#${fragment}` : ref;
}

/**
 * The codec of one media kind. toWire converts only scheme strings of that kind (an http URL or an
 * object is already wire-shaped, or not ours to fix); toPublic only objects with an id.
 */
export function mediaCodec(kind: MediaKind): Codec {
  return [
    (value) => {
      const ref = parseMediaRef(value);
      return ref?.kind === kind ? ref.media : value;
    },
    (value) => (isPlainObject(value) && formatMediaRef(kind, value)) || value,
  ];
}
