/**
 * Codecs `image`, `video`, `audio`, `document`: media references, `wix:<kind>://v1/<id>/<filename>#...`
 * scheme strings in the public form and `{id, url, height, width, filename, altText}` objects on
 * the wire. Part of the transform engine (./transform.ts), which has every codec when it runs.
 */
import type { MediaVideo } from '../../generated/models.js';
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

/**
 * Wire form of a media reference: the schema's `MediaVideo` (the widest reference object; it has
 * the poster as `thumbnail`), plus `posters`, which full video objects of the media API carry
 * instead (the first one is used).
 */
export type MediaObject = MediaVideo & { posters?: readonly MediaPoster[] };

/** Where images are served from; the wire `url` of an image made from a scheme string. */
export const IMAGE_URL_PREFIX = 'https://static.wixstatic.com/media/';

// The id stops at `/`; the filename takes the rest up to the fragment, so a hand-written
// filename with a raw `/` still parses.
const SCHEME = /^wix:(image|video|audio|document):\/\/v1\/([^/#]+)\/([^#]*)(?:#(.*))?$/s;

/** Copy of `object` without its `undefined` values, so absent parts stay absent keys. */
const defined = <T extends object>(object: T): T =>
  Object.fromEntries(Object.entries(object).filter((entry) => entry[1] !== undefined)) as T;

/**
 * Parses a scheme string into its kind and wire object; `undefined` when `value` is not one. An
 * image gets `url` (served from {@link IMAGE_URL_PREFIX}) and its origin size; a video gets its
 * poster as `thumbnail`.
 */
export function parseMediaRef(value: unknown): { kind: MediaKind; media: MediaObject } | undefined {
  const match = typeof value == 'string' && SCHEME.exec(value);
  if (!match) return undefined;
  // (Both groups before the fragment always take part in a match.)
  const [, kind, id, file, fragment] = match as unknown as [string, MediaKind, string, string, string?];
  const params = new URLSearchParams(fragment);
  // The parameter as a finite number, else undefined.
  const number = (name: string): number | undefined => {
    // An absent or empty parameter is no number (not 0).
    const parsed = Number(params.get(name) || Number.NaN);
    return Number.isFinite(parsed) ? parsed : undefined;
  };
  let filename: string | undefined = file;
  try {
    filename = decodeURIComponent(file);
  } catch {
    // A stray `%` in a hand-written string: keep it literal.
  }
  filename ||= undefined;
  const poster = params.get('posterUri');
  const media: MediaObject =
    kind == 'image'
      ? { id, url: IMAGE_URL_PREFIX + id, height: number('originHeight'), width: number('originWidth'), filename }
      : {
          id,
          filename,
          thumbnail:
            kind == 'video' && poster
              ? defined({ url: poster, width: number('posterWidth'), height: number('posterHeight') })
              : undefined,
        };
  return { kind, media: defined(media) };
}

/**
 * Formats a wire media object as a `kind` scheme string; `undefined` when it has no id. The video
 * poster comes from `thumbnail`, else from `posters[0]` (its media id, else its url). Absent sizes
 * are left out of the fragment rather than written as `undefined`.
 */
export function formatMediaRef(kind: MediaKind, media: MediaObject): string | undefined {
  const { id } = media;
  if (typeof id != 'string' || !id) return undefined;
  const first = media.posters?.[0];
  const poster = media.thumbnail ?? (first && { ...first, url: first.id ?? first.url });
  // An image carries its origin size; a video its poster; the other kinds nothing.
  const params: [string, unknown][] =
    kind == 'image'
      ? [
          ['originWidth', media.width],
          ['originHeight', media.height],
        ]
      : kind == 'video'
        ? [
            ['posterUri', poster?.url],
            ['posterWidth', poster?.width],
            ['posterHeight', poster?.height],
          ]
        : [];
  const fragment = params
    // Absent (or empty) values are left out rather than written as `undefined`.
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    // Escapes only the characters that would break the fragment's `k=v&k=v` syntax, so a
    // media-id poster (`abc_f000.jpg`) stays readable as in the platform's own strings.
    .map(([name, value]) => `${name}=${String(value).replace(/[%&#=+\s]/g, encodeURIComponent)}`)
    .join('&');
  const ref = `wix:${kind}://v1/${id}/${encodeURIComponent(media.filename ?? '')}`;
  return fragment ? `${ref}#${fragment}` : ref;
}

/**
 * The codec of one media kind. toWire converts only scheme strings of that kind (an http URL or an
 * object is already wire-shaped, or not ours to fix); toPublic only objects with an id.
 */
export const mediaCodec = (kind: MediaKind): Codec => ({
  toWire: (value) => {
    const ref = parseMediaRef(value);
    return ref?.kind === kind ? ref.media : value;
  },
  toPublic: (value) => (isPlainObject(value) && formatMediaRef(kind, value)) || value,
});

/** The media reference codecs by leaf code. */
export const mediaCodecs: Readonly<Record<MediaKind, Codec>> = {
  image: mediaCodec('image'),
  video: mediaCodec('video'),
  audio: mediaCodec('audio'),
  document: mediaCodec('document'),
};
