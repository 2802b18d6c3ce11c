/**
 * Upload progress never goes backwards, even when the TUS layer reports a lower offset after a
 * resume (the server kept fewer bytes than were sent). A real server cannot be made to do that
 * on demand, so tus-js-client is replaced by a stub that reports exactly that sequence.
 */
import nock from 'nock';
import { describe, expect, it, vi } from 'vitest';
import type { UploadProgress } from '../../../src/media/media.js';
import { BASE, useNock } from '../../helpers/capture.js';
import { testClient } from '../../helpers/clients.js';

const SIZE = 1000;

// A TUS upload that sends 600 bytes, resumes from 400 (what the server kept), then finishes.
vi.mock('tus-js-client', () => ({
  Upload: class {
    constructor(
      _file: unknown,
      private readonly options: { onProgress(sent: number, total: number): void; onSuccess(): void },
    ) {}
    start() {
      for (const sent of [0, 300, 600, 400, 700, SIZE]) this.options.onProgress(sent, SIZE);
      this.options.onSuccess();
    }
    abort() {
      return Promise.resolve();
    }
  },
}));

useNock();

describe('media.upload over TUS: progress', () => {
  it('reports strictly increasing offsets when the TUS layer goes back after a resume', async () => {
    nock(BASE)
      .post('/site-media/v1/files/generate-resumable-upload-url')
      .reply(200, { uploadUrl: `${BASE}/tus`, uploadToken: 'token' })
      .put('/tus/token')
      .query({ filename: 'v.mp4' })
      .reply(200, { file: { id: 'f1', displayName: 'v.mp4' } });
    const reported: number[] = [];
    const file = await testClient().media.upload(new Uint8Array(SIZE), {
      mimeType: 'video/mp4',
      fileName: 'v.mp4',
      resumable: true,
      onProgress: (progress: UploadProgress) => reported.push(progress.loaded),
    });
    expect(file._id).toBe('f1');
    expect(reported).toEqual([0, 300, 600, 700, SIZE]);
  });
});
