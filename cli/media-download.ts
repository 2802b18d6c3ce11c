/**
 * One media file's bytes for `pull --media`, from a download URL the remote site gave: a URL the
 * CLI does not choose, so it is fetched as the emulator fetches an import's source (only public
 * addresses, checked after DNS resolution and at every redirect, unless `--allow-private`), and
 * streamed to disk with a size bound, never held in memory.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fetchImportSource } from '../emulator/services/media/import-fetch.js';

/**
 * The most bytes one media file may have: 4 GiB, above the largest file a site's Media Manager
 * holds. A remote that streams more is not sending a media file.
 */
export const MAX_MEDIA_FILE_BYTES = 4 * 1024 ** 3;

/** How one download may go: its size bound and whether loopback and private addresses may be reached. */
export interface DownloadReach {
  /** `--allow-private`: a site on this machine or a private network (a local emulator, a test fixture). */
  allowPrivate: boolean;
  /** The most bytes the file may have: what its descriptor says, else {@link MAX_MEDIA_FILE_BYTES}. */
  maxBytes: number;
}

/** A download the CLI refuses or that failed: its message says which file and why. */
export class MediaDownloadError extends Error {
  override name = 'MediaDownloadError';
}

/** A stream that passes bytes on and fails once more than `maxBytes` went through. */
function sizeBound(maxBytes: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes) callback(new MediaDownloadError(`${what} is longer than ${maxBytes} bytes: not saved`));
      else callback(null, chunk);
    },
  });
}

/**
 * Saves the bytes at `url` as `target` (whole or not at all: a `.tmp` file renamed at the end).
 * `what` names the file in errors. Rejects with {@link MediaDownloadError} for a refused address,
 * an answer that is not a success, or more bytes than `reach.maxBytes`.
 */
export async function downloadMediaFile(
  url: string,
  target: string,
  what: string,
  reach: DownloadReach,
): Promise<void> {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new MediaDownloadError(`${what}: the site gave a download URL that is not http(s)`);
  const controller = new AbortController();
  let response: Awaited<ReturnType<typeof fetchImportSource>>;
  try {
    response = await fetchImportSource(
      new URL(url),
      {},
      {
        privateAddressesAllowed: reach.allowPrivate,
        // Not the emulator: no port of its own to keep away from.
        emulatorPort: -1,
        howToAllowPrivate: 'pass --allow-private',
      },
      controller.signal,
    );
  } catch (error) {
    throw new MediaDownloadError(`${what}: ${(error as Error).message}`);
  }
  if (response.statusCode! < 200 || response.statusCode! >= 300) {
    response.resume();
    throw new MediaDownloadError(`${what}: the download answered ${response.statusCode}`);
  }
  const declared = Number(response.headers['content-length']);
  if (declared > reach.maxBytes) {
    response.destroy();
    throw new MediaDownloadError(`${what} is ${declared} bytes, more than ${reach.maxBytes}: not saved`);
  }
  const partial = `${target}.tmp`;
  try {
    await pipeline(response, sizeBound(reach.maxBytes, what), createWriteStream(partial));
    await rename(partial, target);
  } catch (error) {
    controller.abort();
    await rm(partial, { force: true });
    throw error instanceof MediaDownloadError ? error : new MediaDownloadError(`${what}: ${(error as Error).message}`);
  }
}
