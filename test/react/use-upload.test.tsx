// @vitest-environment jsdom
/**
 * useUpload against the emulator: progress and the descriptor (the bytes read back), an upload
 * that survives re-renders, abort by the user and on unmount, a second upload replacing the
 * first, resumable (TUS) uploads chunk by chunk. A TUS chunk cannot be held back at the emulator,
 * so unmounting during one is tested against a local TUS server that can hold it.
 */
import { act, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAbortedError, isRequestError, type FileDescriptor, type UploadProgress } from '../../src/index.js';
import { useUpload } from '../../src/react/index.js';
import { startEmulatorSite, type EmulatorSite } from './emulator-site.js';
import { renderHookWithClient } from './render.js';
import { startTusServer, type TusTestServer } from './tus-server.js';

let site: EmulatorSite;
let release = () => {};
beforeAll(async () => (site = await startEmulatorSite()));
afterAll(() => site.close());
afterEach(() => {
  release();
  vi.restoreAllMocks();
});

// Bytes, not a File: jsdom's File cannot be sent by Node's fetch (a browser's can).
const photoBytes = new TextEncoder().encode('a small photo');
const photo = { mimeType: 'image/jpeg', fileName: 'photo.jpg' };
const SIMPLE_PUT = '/_uploads/files/';
const FINAL_TUS_PUT = '/_uploads/tus/';
const puts = (prefix: string) => site.sent.filter((r) => r.method === 'PUT' && r.path.startsWith(prefix));
/** Waits until one more PUT to `prefix` than `count` has left the client. */
const putSent = (prefix: string, count: number) => waitFor(() => expect(puts(prefix).length).toBe(count + 1));
/** The emulator's own log of the requests to paths starting with `prefix`. */
const emulatorLog = async (method: string, prefix: string) => {
  const requests = await site.emulator.requests({ limit: 1000 });
  return requests.filter((r) => r.method === method && r.path.startsWith(prefix));
};

describe('useUpload', () => {
  it('reports progress and status, and resolves with the descriptor', async () => {
    const { result } = renderHookWithClient(useUpload, site.client());
    expect(result.current).toMatchObject({ status: 'idle', progress: 0, error: null, file: null });
    const before = puts(SIMPLE_PUT).length;
    release = site.hold(SIMPLE_PUT);
    const reported: UploadProgress[] = [];
    let done: Promise<FileDescriptor> | undefined;
    act(() => void (done = result.current.upload(photoBytes, { ...photo, onProgress: (p) => reported.push(p) })));
    await putSent(SIMPLE_PUT, before);
    expect(result.current).toMatchObject({ status: 'uploading', progress: 0 });
    release();
    const file = await act(() => done!);
    expect(file).toMatchObject({ displayName: 'photo.jpg', sizeInBytes: '13' });
    expect(result.current).toMatchObject({ status: 'success', progress: 1, error: null, file });
    // The caller's own onProgress still gets every report.
    expect(reported).toEqual([
      { loaded: 0, total: 13 },
      { loaded: 13, total: 13 },
    ]);
    expect(await (await fetch(file.url!)).text()).toBe('a small photo');
  });

  it('keeps the upload in flight through re-renders', async () => {
    const { result, rerender } = renderHookWithClient(useUpload, site.client());
    const before = puts(SIMPLE_PUT).length;
    release = site.hold(SIMPLE_PUT);
    let done: Promise<FileDescriptor> | undefined;
    act(() => void (done = result.current.upload(photoBytes, photo)));
    await putSent(SIMPLE_PUT, before);
    rerender();
    rerender();
    release();
    await act(() => done!);
    expect(result.current.status).toBe('success');
    expect(puts(SIMPLE_PUT).length).toBe(before + 1);
    expect(puts(SIMPLE_PUT).at(-1)!.aborted).toBe(false);
  });

  it('aborts when asked: status aborted, an AbortedError', async () => {
    const { result } = renderHookWithClient(useUpload, site.client());
    const before = puts(SIMPLE_PUT).length;
    release = site.hold(SIMPLE_PUT);
    let done: Promise<unknown> | undefined;
    act(() => void (done = result.current.upload(photoBytes, photo).catch((e: unknown) => e)));
    await putSent(SIMPLE_PUT, before);
    act(() => result.current.abort());
    const error = await act(() => done!);
    expect(isAbortedError(error)).toBe(true);
    expect(result.current).toMatchObject({ status: 'aborted', error });
    expect(puts(SIMPLE_PUT).at(-1)!.aborted).toBe(true);
  });

  it('aborts the upload when the component unmounts, without errors', async () => {
    const errors = vi.spyOn(console, 'error');
    const { result, unmount } = renderHookWithClient(useUpload, site.client());
    const before = puts(SIMPLE_PUT).length;
    release = site.hold(SIMPLE_PUT);
    let done: Promise<unknown> | undefined;
    act(() => void (done = result.current.upload(photoBytes, photo).catch((e: unknown) => e)));
    await putSent(SIMPLE_PUT, before);
    unmount();
    expect(isAbortedError(await done)).toBe(true);
    expect(puts(SIMPLE_PUT).at(-1)!.aborted).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });

  it('a new upload replaces the one in flight', async () => {
    const { result } = renderHookWithClient(useUpload, site.client());
    const before = puts(SIMPLE_PUT).length;
    release = site.hold(SIMPLE_PUT);
    let first: Promise<unknown> | undefined;
    let second: Promise<FileDescriptor> | undefined;
    act(() => void (first = result.current.upload(photoBytes, photo).catch((e: unknown) => e)));
    await putSent(SIMPLE_PUT, before);
    act(
      () =>
        void (second = result.current.upload(new TextEncoder().encode('other'), {
          mimeType: 'image/png',
          fileName: 'other.png',
        })),
    );
    expect(isAbortedError(await act(() => first!))).toBe(true);
    release();
    const file = await act(() => second!);
    expect(result.current).toMatchObject({ status: 'success', file: { displayName: 'other.png' } });
    expect(file.displayName).toBe('other.png');
  });

  it('resumable: reports progress chunk by chunk, and survives re-renders', async () => {
    // The progress of every render.
    const rendered: number[] = [];
    const { result, rerender } = renderHookWithClient(() => {
      const state = useUpload();
      rendered.push(state.progress);
      return state;
    }, site.client());
    const video = new Uint8Array(12 * 1024 * 1024).fill(7);
    const creations = (await emulatorLog('POST', '/_uploads/tus')).length;
    const before = puts(FINAL_TUS_PUT).length;
    // Every chunk is sent (TUS requests pass the client's fetch too); the finalising PUT waits.
    release = site.hold(FINAL_TUS_PUT, 'PUT');
    let done: Promise<FileDescriptor> | undefined;
    act(() => void (done = result.current.upload(video, { mimeType: 'video/mp4', fileName: 'clip.mp4' })));
    await putSent(FINAL_TUS_PUT, before);
    rerender();
    expect(result.current.status).toBe('uploading');
    release();
    const file = await act(() => done!);
    expect(file).toMatchObject({ displayName: 'clip.mp4', sizeInBytes: String(video.length) });
    expect(result.current).toMatchObject({ status: 'success', progress: 1 });
    // One upload created (the re-render did not start another), sent in 5 MiB chunks.
    expect((await emulatorLog('POST', '/_uploads/tus')).length).toBe(creations + 1);
    expect(rendered.filter((value) => value > 0 && value < 1).length).toBeGreaterThanOrEqual(2);
    expect(rendered).toEqual([...rendered].sort((a, b) => a - b));
  });

  it('reports bad input in error before any request', async () => {
    const { result } = renderHookWithClient(useUpload, site.client());
    const before = site.sent.length;
    const error = await act(() => result.current.upload(new Uint8Array([1, 2, 3])).catch((e: unknown) => e));
    expect(isRequestError(error)).toBe(true);
    expect(result.current).toMatchObject({ status: 'error', error: { field: 'mimeType' } });
    expect(site.sent.length).toBe(before);
  });
});

describe('useUpload, resumable, unmounted mid-chunk', () => {
  let tus: TusTestServer;
  beforeAll(async () => (tus = await startTusServer()));
  afterAll(() => tus.close());

  it('stops sending and deletes the partial upload', async () => {
    const { result, unmount } = renderHookWithClient(useUpload, tus.client());
    const patches = tus.requests('PATCH').length;
    release = tus.hold('/tus/');
    let done: Promise<unknown> | undefined;
    act(
      () =>
        void (done = result.current
          .upload(new Uint8Array(1024).fill(1), { mimeType: 'video/mp4', fileName: 'short.mp4', resumable: true })
          .catch((e: unknown) => e)),
    );
    await waitFor(() => expect(tus.requests('PATCH').length).toBe(patches + 1));
    unmount();
    expect(isAbortedError(await done)).toBe(true);
    release();
    await waitFor(() => expect(tus.requests('DELETE').length).toBeGreaterThan(0));
    expect(tus.requests('PATCH').at(-1)!.aborted).toBe(true);
    expect(tus.requests('DELETE').at(-1)!.path).toBe(tus.requests('PATCH').at(-1)!.path);
  });
});
