/**
 * The one request both upload paths end with: `PUT <url>?filename=<name>` to the provider's upload
 * host, answered by `{file: <FileDescriptor>}`. Shared by the simple upload (which sends the bytes
 * in it) and the resumable one (whose empty PUT finalises the TUS upload).
 */
import type { FileDescriptor } from '../../generated/models.js';
import { getFileDescriptor } from '../../generated/operations/getFileDescriptor.js';
import { errorFromResponse, HttpError, NetworkError, SYSTEM_ERROR } from '../errors/index.js';
import type { Transport } from '../http/transport.js';
import { toPublic } from '../wire/index.js';
import { putWithProgress } from './sent-progress.js';

/** @internal What the resumable path (./tus.ts) is handed. */
export interface UploadJob {
  transport: Transport;
  body: Blob | Uint8Array;
  size: number;
  /** Wire body of the generate-upload-url call. */
  request: { mimeType: string; fileName: string; sizeInBytes: string };
  signal: AbortSignal;
  progress(loaded: number): void;
}

/** A 2xx answer that lacks what the upload needs (an upload URL, a descriptor). */
export const incomplete = (what: string, status = 200, requestId?: string | null): HttpError =>
  // (SiteKitError drops a non-string request id.)
  new HttpError({
    status,
    code: SYSTEM_ERROR,
    requestId: requestId as string,
    message: `The upload response has no ${what}`,
  });

/**
 * The upload URL an answer gave, resolved against `baseUrl`; one that is no URL (`http://[x`) is an
 * incomplete answer like a missing one, never the bare TypeError `new URL` throws.
 */
export function uploadTarget(url: string | URL | undefined, baseUrl: string, what: string): URL {
  if (!url) throw incomplete(what);
  try {
    return new URL(url, baseUrl);
  } catch {
    throw incomplete(`valid ${what}`);
  }
}

/**
 * Sends the PUT with the bare fetch (the URL is signed: no auth header, no SDK header, no retry)
 * and returns the descriptor in public form; `onSent` (the simple upload's) hears the body's bytes
 * go out (./sent-progress.ts). Non-2xx → the mapped error; no response → NetworkError.
 * An aborted `init.signal` surfaces as NetworkError here; the caller turns it into Aborted/Timeout.
 */
export async function putFile(
  transport: Transport,
  url: string | URL | undefined,
  fileName: string,
  init: RequestInit,
  onSent?: (bytes: number) => void,
): Promise<FileDescriptor> {
  const target = uploadTarget(url, transport.baseUrl, 'upload URL');
  target.searchParams.set('filename', fileName);
  let response: Response;
  let text: string;
  try {
    const put = { ...init, method: 'PUT' };
    response = await (onSent && (put.body instanceof Blob || put.body instanceof Uint8Array)
      ? putWithProgress(transport, target, put as RequestInit & { body: Blob | Uint8Array }, onSent)
      : transport.fetchRaw(target, put));
    text = await response.text();
  } catch (cause) {
    throw new NetworkError({ cause });
  }
  const requestId = response.headers.get('x-wix-request-id');
  if (!response.ok)
    throw errorFromResponse({ status: response.status, statusText: response.statusText, body: text, requestId });
  let file: FileDescriptor | undefined;
  try {
    file = (toPublic(JSON.parse(text), getFileDescriptor.response) as { file?: FileDescriptor }).file;
  } catch {
    // not JSON: reported below
  }
  if (file) return file;
  throw incomplete('file descriptor', response.status, requestId);
}
