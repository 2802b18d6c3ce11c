/**
 * `useUpload()`: `client.media.upload` with its progress, status and error as React state. The
 * upload in flight lives in a ref, so re-renders neither restart nor lose it; unmounting the
 * component aborts it (a resumable upload is then deleted on the server).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  isAbortedError,
  isSiteKitError,
  NetworkError,
  type FileDescriptor,
  type SiteKitError,
  type UploadData,
  type UploadOptions,
} from '../index.js';
import { useSiteKitContext } from './context.js';

/** Where an upload stands. */
export type UploadStatus = 'idle' | 'uploading' | 'success' | 'error' | 'aborted';

/** What {@link useUpload} returns. */
export interface UploadState {
  /**
   * Uploads `data` (see `client.media.upload`; `onProgress` is still called). Resolves with the
   * file's descriptor; rejects as the upload does. Starting an upload aborts the one in flight.
   */
  upload(data: UploadData, options?: UploadOptions): Promise<FileDescriptor>;
  /** Stops the upload in flight (status `aborted`); does nothing when none is. */
  abort(): void;
  /** Share of the bytes sent, from 0 to 1. */
  progress: number;
  status: UploadStatus;
  /** Why the last upload failed, or `null`. */
  error: SiteKitError | null;
  /** The descriptor of the last finished upload, or `null`. */
  file: FileDescriptor | null;
}

interface Progress {
  status: UploadStatus;
  progress: number;
  error: SiteKitError | null;
  file: FileDescriptor | null;
}

const IDLE: Progress = { status: 'idle', progress: 0, error: null, file: null };

/**
 * Uploads files to the Media Manager with progress.
 *
 * @example
 * ```tsx
 * function Picker() {
 *   const { upload, progress, status, error, abort } = useUpload();
 *   return (
 *     <>
 *       <input type="file" onChange={(e) => void upload(e.target.files![0]!, { filePath: '/uploads' }).catch(() => {})} />
 *       {status === 'uploading' && <progress value={progress} />}
 *       {status === 'uploading' && <button onClick={abort}>Cancel</button>}
 *       {error && <p role="alert">{error.message}</p>}
 *     </>
 *   );
 * }
 * ```
 */
export function useUpload(): UploadState {
  const { client } = useSiteKitContext('useUpload');
  const [state, setState] = useState<Progress>(IDLE);
  /** The controller of the upload in flight. */
  const inFlight = useRef<AbortController | null>(null);

  // Abort on unmount. Under StrictMode the effect runs, is cleaned up and runs again right after
  // mounting, before any upload can start, so nothing is aborted then.
  useEffect(() => () => inFlight.current?.abort(), []);

  const abort = useCallback(() => inFlight.current?.abort(), []);

  const upload = useCallback(
    async (data: UploadData, options: UploadOptions = {}) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      const current = () => inFlight.current === controller;
      const { signal: callerSignal, onProgress, ...rest } = options;
      // The caller's signal still aborts this upload.
      const forward = () => controller.abort(callerSignal?.reason);
      if (callerSignal?.aborted) forward();
      callerSignal?.addEventListener('abort', forward, { once: true });
      setState({ status: 'uploading', progress: 0, error: null, file: null });
      try {
        const file = await client.media.upload(data, {
          ...rest,
          signal: controller.signal,
          onProgress(sent) {
            if (current())
              setState((previous) => ({ ...previous, progress: sent.total ? sent.loaded / sent.total : 0 }));
            onProgress?.(sent);
          },
        });
        if (current()) setState({ status: 'success', progress: 1, error: null, file });
        return file;
      } catch (e) {
        const error = isSiteKitError(e) ? e : new NetworkError({ cause: e });
        if (current())
          setState((previous) => ({ ...previous, status: isAbortedError(error) ? 'aborted' : 'error', error }));
        throw error;
      } finally {
        callerSignal?.removeEventListener('abort', forward);
        if (current()) inFlight.current = null;
      }
    },
    [client],
  );

  return useMemo(() => ({ ...state, upload, abort }), [state, upload, abort]);
}
