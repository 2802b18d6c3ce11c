/**
 * `media.upload`: one call that gets an upload URL, sends the bytes and resolves with the file
 * descriptor. Small files go in one PUT; large ones (or `resumable: true`) go over TUS (./tus.ts,
 * which loads tus-js-client when such an upload starts). Loaded on first use, through ./media.ts.
 */
import type { FileDescriptor, FileExternalInfo } from '../../generated/models.js';
import { generateFileUploadUrl } from '../../generated/operations/generateFileUploadUrl.js';
import { RequestError } from '../errors/index.js';
import { deadline } from '../http/deadline.js';
import type { Transport } from '../http/transport.js';
import { invalid, requireString } from '../input.js';
import { send } from '../invoke.js';
import type { CallOptions } from '../types.js';
import { putFile } from './put.js';
import { tusUpload } from './tus.js';

/**
 * What `upload` accepts: a `Blob`/`File` (browsers and Node, e.g. from `fs.openAsBlob(path)`), bytes
 * (`Uint8Array`, `Buffer`, any typed array or `DataView`, `ArrayBuffer`), or a stream of bytes (a web
 * `ReadableStream`, a Node `Readable`, any async iterable of `Uint8Array`/string chunks).
 *
 * Streams are read into memory before the upload starts (the size must be known to ask for the
 * upload URL, and a resumed upload must be able to re-send bytes). For files too large for memory,
 * pass a Blob: it is read one chunk at a time.
 */
export type UploadData =
  | Blob
  | ArrayBuffer
  | ArrayBufferView
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

/** Progress of an upload: bytes sent so far, of `total`. Reported with `loaded` strictly increasing, from 0 to `total`. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Options of {@link MediaApi.upload}. `signal` and `timeoutMs` apply to the whole upload. */
export interface UploadOptions extends CallOptions {
  /** MIME type of the file, e.g. `image/jpeg`. Default: the Blob's `type`; required otherwise. */
  mimeType?: string;
  /** File name (with its extension) shown in the Media Manager. Default: the File's `name`; required otherwise. */
  fileName?: string;
  /** Folder to put the file in (root of `filePath`). Default: `media-root`. */
  parentFolderId?: string;
  /** Whether the file's link is private. */
  private?: boolean;
  /** Labels to assign to the file. */
  labels?: string[];
  /** Folder path to store the file in, e.g. `/videos/2024`; missing folders are created. */
  filePath?: string;
  /** Passed on to the file-ready and file-failed events. */
  externalInfo?: FileExternalInfo;
  /**
   * Called as bytes are sent: at least once with `loaded: 0` and once with `loaded: total`. An
   * upload through a `fetch` of your own (the client's `fetch` option) reports only those two for
   * a simple upload, and each 5 MiB chunk once sent for a resumable one: fetch tells nothing of a
   * request body's bytes.
   */
  onProgress?: (progress: UploadProgress) => void;
  /**
   * `true`: a resumable TUS upload; `false`: one PUT. Default: resumable above
   * `RESUMABLE_THRESHOLD` bytes (10 MiB).
   */
  resumable?: boolean;
}

/** Refuses the upload's input unless `ok`: `upload: <field> must be <expected>`. */
const check = (ok: unknown, field: string, expected: string): void => {
  if (!ok) invalid(field, expected, 'upload');
};

/**
 * @internal The implementation of `media.upload` (documented there). Files larger than
 * `resumableThreshold` bytes (the public `RESUMABLE_THRESHOLD` of ./media.ts) go over TUS unless
 * `resumable` says otherwise.
 */
export async function upload(
  transport: Transport,
  data: UploadData,
  options: UploadOptions | undefined,
  resumableThreshold: number,
): Promise<FileDescriptor> {
  const {
    signal,
    timeoutMs,
    onProgress,
    resumable,
    mimeType = (data as Blob)?.type,
    fileName = (data as File)?.name,
    ...rest
  } = options ?? {};
  requireString(mimeType, 'mimeType', 'upload');
  requireString(fileName, 'fileName', 'upload');
  check(onProgress == null || typeof onProgress == 'function', 'onProgress', 'a function');
  let body =
    data instanceof Blob
      ? data
      : data instanceof ArrayBuffer
        ? new Uint8Array(data)
        : ArrayBuffer.isView(data)
          ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
          : undefined;
  const stream =
    !body && ((data as ReadableStream)?.getReader || (data as AsyncIterable<unknown>)?.[Symbol.asyncIterator]);
  check(body || stream, 'data', 'a Blob, bytes or a stream');
  const limit = deadline(signal, timeoutMs);
  try {
    if (stream) body = await readAll(data as ReadableStream | AsyncIterable<BlobPart>);
    const size = body instanceof Blob ? body.size : body!.length;
    check(size, 'data', 'non-empty');
    // Progress never goes backwards, even when a resumed TUS upload reports a lower offset.
    let reported = -1;
    const progress = (loaded: number) => {
      if (loaded <= reported) return;
      reported = loaded;
      onProgress?.({ loaded, total: size });
    };
    const request = { ...rest, mimeType: mimeType!, fileName: fileName!, sizeInBytes: String(size) };
    progress(0);
    const file = await ((resumable ?? size > resumableThreshold)
      ? tusUpload({ transport, body: body!, size, request, signal: limit.signal, progress })
      : send(transport, generateFileUploadUrl, request, { signal: limit.signal }).then((response) =>
          putFile(
            transport,
            (response as { uploadUrl?: string }).uploadUrl,
            fileName!,
            { body: body as Blob, headers: { 'Content-Type': mimeType! }, signal: limit.signal },
            // The bytes in one PUT report progress too (the total comes once the answer is in).
            onProgress && ((sent) => progress(Math.min(sent, size - 1))),
          ),
        ));
    progress(size);
    return file;
  } catch (e) {
    throw limit.signal.aborted ? limit.error() : e;
  } finally {
    limit.done();
  }
}

/** Reads a stream to the end (before any request, so a failure is bad input). */
async function readAll(data: ReadableStream | AsyncIterable<BlobPart>): Promise<Blob> {
  try {
    if ('getReader' in data) return await new Response(data).blob();
    const parts: BlobPart[] = [];
    for await (const part of data) parts.push(part);
    return new Blob(parts);
  } catch (cause) {
    throw new RequestError('upload: reading data failed', { field: 'data', cause });
  }
}
