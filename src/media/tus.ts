/**
 * The resumable half of `media.upload`, over the TUS protocol with tus-js-client. Part of the
 * upload feature (loaded on first use with ./upload.ts); tus-js-client itself, the bulk of it
 * (16 KB min+gzip), loads only when a resumable upload starts: most uploads are small.
 *
 * The wire, as the provider documents it (and as an emulator must serve it):
 * 1. `POST /site-media/v1/files/generate-resumable-upload-url` with `uploadProtocol: 'TUS'` →
 *    `{uploadUrl, uploadToken, uploadProtocol}`.
 * 2. A TUS 1.0 upload whose creation endpoint is `uploadUrl`, with the Upload-Metadata keys
 *    `filename`, `contentType` (the MIME type) and `token` (the upload token), plus the
 *    conventional `filetype` (same as `contentType`) for generic TUS servers. The token travels
 *    only in the metadata: no auth header goes to the upload host.
 * 3. When every byte is acknowledged, `PUT <uploadUrl>/<uploadToken>?filename=<fileName>` with an
 *    empty body finalises the upload and answers `{file: <FileDescriptor>}` (often still
 *    `operationStatus: 'PENDING'`; the file-ready event or `getFileDescriptor` tell when it is ready).
 */
import type { DetailedError } from 'tus-js-client';
import type { FileDescriptor } from '../../generated/models.js';
import { generateFileResumableUploadUrl } from '../../generated/operations/generateFileResumableUploadUrl.js';
import { errorFromResponse, NetworkError } from '../errors/index.js';
import { send } from '../invoke.js';
import { loadOnFirstUse } from '../lazy.js';
import { incomplete, putFile, uploadTarget, type UploadJob } from './put.js';
import { fetchHttpStack } from './tus-fetch-stack.js';

// tus-js-client loads when the first resumable upload starts.
const loadTusClient = loadOnFirstUse(() => import('tus-js-client'));

/** Bytes per PATCH request: what a dropped connection can cost at most (5 MiB). */
export const CHUNK_SIZE = 5 * 1024 * 1024;
/**
 * Waits (ms) before each retry of a failed TUS request; a retry first asks the server how much it
 * has (HEAD) and resumes from there. The count starts again whenever bytes got through.
 */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];

/** @internal Runs a resumable upload; rejects with SiteKitError (an abort surfaces as the signal's reason). */
export async function tusUpload(job: UploadJob): Promise<FileDescriptor> {
  const { transport, body, size, request, signal, progress } = job;
  const { uploadUrl, uploadToken } = (await send(
    transport,
    generateFileResumableUploadUrl,
    { ...request, uploadProtocol: 'TUS' },
    { signal },
  )) as {
    uploadUrl?: string;
    uploadToken?: string;
  };
  if (!uploadUrl || !uploadToken) {
    throw incomplete('uploadUrl or uploadToken');
  }
  const endpoint = uploadTarget(uploadUrl, transport.baseUrl, 'uploadUrl');
  const { Upload } = await loadTusClient();
  let onAbort = (): void => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      // Stops sending at once, deletes the partial upload on the server (best effort) and rejects.
      const stop = (error: unknown) => {
        upload.abort(true).catch(() => undefined);
        reject(error);
      };
      const upload = new Upload(body as Blob, {
        endpoint: endpoint.href,
        chunkSize: CHUNK_SIZE,
        retryDelays: RETRY_DELAYS,
        metadata: {
          filename: request.fileName,
          contentType: request.mimeType,
          filetype: request.mimeType,
          token: uploadToken,
        },
        // The token is single-use: nothing to resume in a later session, so nothing to store.
        storeFingerprintForResuming: false,
        // A caller's fetch carries every request of the client, the upload's too.
        ...(transport.usesCallerFetch
          ? { httpStack: fetchHttpStack((input, init) => transport.fetchRaw(input, init)) }
          : {}),
        fileReader: { openFile: () => Promise.resolve(source(body, size)) },
        onProgress: (sent) => {
          // A throwing onProgress must not escape into tus-js-client's I/O callbacks.
          try {
            progress(sent);
          } catch (e) {
            stop(e);
          }
        },
        onSuccess: () => resolve(),
        onError: (e) => reject(tusError(e as DetailedError)),
      });
      onAbort = () => stop(signal.reason);
      signal.addEventListener('abort', onAbort);
      if (signal.aborted) onAbort();
      else upload.start();
    });
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  endpoint.pathname = endpoint.pathname.replace(/\/?$/, `/${uploadToken}`);
  return putFile(transport, endpoint, request.fileName, { signal });
}

/**
 * The bytes as tus-js-client reads them, for both of its HTTP stacks: every slice is a Uint8Array
 * (Node's stack cannot send a Blob; browsers' XHR sends either) carrying a `size`, which the
 * client reads as the slice's length (and Node's stack as Content-Length).
 */
function source(body: Blob | Uint8Array, size: number) {
  return {
    size,
    async slice(start: number, end: number) {
      const value =
        body instanceof Blob ? new Uint8Array(await body.slice(start, end).arrayBuffer()) : body.subarray(start, end);
      return { value: Object.assign(value, { size: value.length }), done: end >= size };
    },
    close() {},
  };
}

/** A TUS failure that retries could not fix, as a SiteKitError. */
function tusError(e: DetailedError): Error {
  const res = e.originalResponse;
  return res
    ? errorFromResponse({ status: res.getStatus(), body: res.getBody(), requestId: res.getHeader('x-wix-request-id') })
    : new NetworkError({ cause: e });
}
