// @vitest-environment jsdom
/**
 * useUpload against a local media host (the emulator serves no media yet): progress and the
 * descriptor, an upload that survives re-renders, abort by the user and on unmount, a second
 * upload replacing the first, and resumable (TUS) uploads chunk by chunk.
 */
import { act, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAbortedError, isRequestError, type FileDescriptor, type UploadProgress } from '../../src/index.js';
import { useUpload } from '../../src/react/index.js';
import { renderHookWithClient } from './render.js';
import { startUploadServer, type UploadServer } from './upload-server.js';

let site: UploadServer;
let release = () => {};
beforeAll(async () => (site = await startUploadServer()));
afterAll(() => site.close());
afterEach(() => {
  release();
  vi.restoreAllMocks();
});

// Bytes, not a File: jsdom's File cannot be sent by Node's fetch (a browser's can).
const photoBytes = new TextEncoder().encode('a small photo');
const photo = { mimeType: 'image/jpeg', fileName: 'photo.jpg' };
const puts = () => site.log.filter((r) => r.method === 'PUT' && r.path.startsWith('/upload/'));
const tusRequests = (method: string) => site.log.filter((r) => r.method === method && r.path.startsWith('/tus'));
/** Waits until one more PUT than `count` reached the site. */
const putArrived = (count: number) => waitFor(() => expect(puts().length).toBe(count + 1));

describe('useUpload', () => {
  it('reports progress and status, and resolves with the descriptor', async () => {
    const { result } = renderHookWithClient(useUpload, site.client());
    expect(result.current).toMatchObject({ status: 'idle', progress: 0, error: null, file: null });
    const before = puts().length;
    release = site.hold('/upload/');
    const reported: UploadProgress[] = [];
    let done: Promise<FileDescriptor> | undefined;
    act(() => void (done = result.current.upload(photoBytes, { ...photo, onProgress: (p) => reported.push(p) })));
    await putArrived(before);
    expect(result.current).toMatchObject({ status: 'uploading', progress: 0 });
    release();
    const file = await act(() => done!);
    expect(file).toMatchObject({ displayName: 'photo.jpg', mimeType: 'image/jpeg', sizeInBytes: '13' });
    expect(result.current).toMatchObject({ status: 'success', progress: 1, error: null, file });
    // The caller's own onProgress still gets every report.
    expect(reported).toEqual([
      { loaded: 0, total: 13 },
      { loaded: 13, total: 13 },
    ]);
    expect(site.uploads.get(puts().at(-1)!.path)!.toString()).toBe('a small photo');
  });

  it('keeps the upload in flight through re-renders', async () => {
    const { result, rerender } = renderHookWithClient(useUpload, site.client());
    const before = puts().length;
    release = site.hold('/upload/');
    let done: Promise<FileDescriptor> | undefined;
    act(() => void (done = result.current.upload(photoBytes, photo)));
    await putArrived(before);
    rerender();
    rerender();
    release();
    await act(() => done!);
    expect(result.current.status).toBe('success');
    expect(puts().length).toBe(before + 1);
    expect(puts().at(-1)!.aborted).toBe(false);
  });

  it('aborts when asked: status aborted, an AbortedError', async () => {
    const { result } = renderHookWithClient(useUpload, site.client());
    const before = puts().length;
    release = site.hold('/upload/');
    let done: Promise<unknown> | undefined;
    act(() => void (done = result.current.upload(photoBytes, photo).catch((e: unknown) => e)));
    await putArrived(before);
    act(() => result.current.abort());
    const error = await act(() => done!);
    expect(isAbortedError(error)).toBe(true);
    expect(result.current).toMatchObject({ status: 'aborted', error });
    await waitFor(() => expect(puts().at(-1)!.aborted).toBe(true));
  });

  it('aborts the upload when the component unmounts, without errors', async () => {
    const errors = vi.spyOn(console, 'error');
    const { result, unmount } = renderHookWithClient(useUpload, site.client());
    const before = puts().length;
    release = site.hold('/upload/');
    let done: Promise<unknown> | undefined;
    act(() => void (done = result.current.upload(photoBytes, photo).catch((e: unknown) => e)));
    await putArrived(before);
    unmount();
    expect(isAbortedError(await done)).toBe(true);
    await waitFor(() => expect(puts().at(-1)!.aborted).toBe(true));
    expect(errors).not.toHaveBeenCalled();
  });

  it('a new upload replaces the one in flight', async () => {
    const { result } = renderHookWithClient(useUpload, site.client());
    const before = puts().length;
    release = site.hold('/upload/');
    let first: Promise<unknown> | undefined;
    let second: Promise<FileDescriptor> | undefined;
    act(() => void (first = result.current.upload(photoBytes, photo).catch((e: unknown) => e)));
    await putArrived(before);
    act(() => void (second = result.current.upload(new TextEncoder().encode('other'), { mimeType: 'image/png', fileName: 'other.png' })));
    expect(isAbortedError(await first)).toBe(true);
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
    const creations = tusRequests('POST').length;
    release = site.hold('/tus/');
    let done: Promise<FileDescriptor> | undefined;
    act(() => void (done = result.current.upload(video, { mimeType: 'video/mp4', fileName: 'clip.mp4' })));
    await waitFor(() => expect(tusRequests('PATCH').length).toBeGreaterThan(0));
    rerender();
    expect(result.current.status).toBe('uploading');
    release();
    const file = await act(() => done!);
    expect(file).toMatchObject({ displayName: 'clip.mp4', sizeInBytes: String(video.length) });
    expect(result.current).toMatchObject({ status: 'success', progress: 1 });
    // One upload created (the re-render did not start another), sent in 5 MiB chunks.
    expect(tusRequests('POST').length).toBe(creations + 1);
    expect(rendered.filter((value) => value > 0 && value < 1).length).toBeGreaterThanOrEqual(2);
    expect(rendered).toEqual([...rendered].sort((a, b) => a - b));
  });

  it('resumable: unmounting stops sending and deletes the partial upload', async () => {
    const { result, unmount } = renderHookWithClient(useUpload, site.client());
    const patches = tusRequests('PATCH').length;
    release = site.hold('/tus/');
    let done: Promise<unknown> | undefined;
    act(() => void (done = result.current.upload(new Uint8Array(1024).fill(1), { mimeType: 'video/mp4', fileName: 'short.mp4', resumable: true }).catch((e: unknown) => e)));
    await waitFor(() => expect(tusRequests('PATCH').length).toBe(patches + 1));
    unmount();
    expect(isAbortedError(await done)).toBe(true);
    release();
    await waitFor(() => expect(tusRequests('DELETE').length).toBeGreaterThan(0));
    expect(tusRequests('PATCH').at(-1)!.aborted).toBe(true);
    expect(tusRequests('DELETE').at(-1)!.path).toBe(tusRequests('PATCH').at(-1)!.path);
  });

  it('reports bad input in error before any request', async () => {
    const { result } = renderHookWithClient(useUpload, site.client());
    const before = site.log.length;
    const error = await act(() => result.current.upload(new Uint8Array([1, 2, 3])).catch((e: unknown) => e));
    expect(isRequestError(error)).toBe(true);
    expect(result.current).toMatchObject({ status: 'error', error: { field: 'mimeType' } });
    expect(site.log.length).toBe(before);
  });
});
