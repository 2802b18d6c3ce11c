/** The `media` namespace: the methods generated from the schema, plus `upload`. */
import type { FileDescriptor } from '../../generated/models.js';
import { namespaceOperations, type MediaOperations } from '../../generated/namespaces.js';
import type { Transport } from '../http/transport.js';
import { bindOperations } from '../invoke.js';
import { loadOnFirstUse } from '../lazy.js';
import type { UploadData, UploadOptions } from './upload.js';

/** Files larger than this (10 MiB) are uploaded with TUS unless `resumable: false`. */
export const RESUMABLE_THRESHOLD = 10485760;

export type { UploadData, UploadOptions, UploadProgress } from './upload.js';

/** Every method of `client.media`. */
export interface MediaApi extends MediaOperations {
  /**
   * Uploads a file to the Media Manager in one call: asks for an upload URL, sends the bytes and
   * resolves with the new file's descriptor in public form (`_id`, `Date`s, `wix:image://...`
   * references), like `getFileDescriptor`. The file is often still `operationStatus: 'PENDING'`;
   * the file-ready event (`onFileReady`) or `getFileDescriptor` tell when it is ready.
   *
   * - Up to 10 MiB (or `resumable: false`): `generateFileUploadUrl`, then one
   *   `PUT <uploadUrl>?filename=<fileName>` with the bytes and `Content-Type: <mimeType>`;
   *   progress is reported at 0 and at 100%.
   * - Above 10 MiB (or `resumable: true`): `generateFileResumableUploadUrl` with
   *   `uploadProtocol: 'TUS'`, a TUS upload to `uploadUrl` in 5 MiB chunks (metadata `filename`,
   *   `contentType`, `filetype`, `token`: the upload token), with retries that resume a dropped
   *   connection where the server's offset stands, then `PUT <uploadUrl>/<uploadToken>?filename=`
   *   to finalise, which answers the descriptor. tus-js-client is loaded on first use only.
   *
   * Streams are read into memory first; pass a Blob (in Node, `fs.openAsBlob(path)`) for files
   * too large for that. `signal` and `timeoutMs` cover the whole upload (the client's default
   * time limit applies only to the JSON calls); an abort stops sending at once and deletes the
   * partial TUS upload.
   *
   * Rejects with `RequestError` before any request for bad input (no `mimeType` or `fileName`,
   * empty or unsupported `data`, a non-function `onProgress`), `AbortedError`/`TimeoutError`,
   * `NetworkError`, or the mapped error of a failed response.
   *
   * @example
   * ```ts
   * // Browser: <input type="file">
   * const file = await client.media.upload(input.files[0], {
   *   filePath: '/uploads',
   *   onProgress: ({ loaded, total }) => (bar.value = loaded / total),
   * });
   * // Node: a file on disk, read chunk by chunk
   * const video = await client.media.upload(await openAsBlob('clip.mp4'), { mimeType: 'video/mp4', fileName: 'clip.mp4', signal });
   * console.log(video._id, video.operationStatus);
   * ```
   */
  upload(data: UploadData, options?: UploadOptions): Promise<FileDescriptor>;
}

// The upload feature (simple and resumable) loads on first use: most pages of an app never upload,
// and it is async anyway.
const loadUploadDriver = loadOnFirstUse(() => import('./upload.js'));

/** Creates `client.media` over a transport. */
export function mediaNamespace(transport: Transport): MediaApi {
  return {
    ...bindOperations<MediaOperations>(transport, namespaceOperations.media),
    upload: async (data, options) => (await loadUploadDriver()).upload(transport, data, options, RESUMABLE_THRESHOLD),
  };
}
