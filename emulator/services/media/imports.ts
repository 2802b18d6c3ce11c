/**
 * Import from a URL: the descriptor is answered at once as PENDING; the emulator fetches the
 * bytes in the background, then the file is READY (`file_ready` event) or FAILED (`file_failed`).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { inBackground } from '../../background.js';
import { invalidField } from '../../errors.js';
import type { Caller, EmulatorContext } from '../../service.js';
import { describeBytes, newDescriptor, newFileId, type FileRequest } from './descriptors.js';
import { mediaDirectories, saveFile, uploaderOf, type FileDescriptor } from './file-store.js';
import { fetchImportSource, PRIVATE_IMPORTS_SETTING, sourceProblem, type ImportReach } from './import-fetch.js';
import { fileEvent } from './media-events.js';
import { mimeTypeOfName } from './media-types.js';
import { limitTo, uploadLimit } from './uploads.js';

/** An import request (`ImportFileRequest`). */
export interface ImportRequest extends FileRequest {
  url?: unknown;
  urlParams?: Record<string, unknown>;
  urlHeaders?: Record<string, unknown>;
}

/** Imports still being fetched, per emulator (tests and close() can wait for them). */
const running = new WeakMap<EmulatorContext, Set<Promise<void>>>();

/** Resolves once every import started so far has finished. */
export async function importsSettled(context: EmulatorContext): Promise<void> {
  await Promise.all([...(running.get(context) ?? [])]);
}

/** Where this emulator's imports may go (see `import-fetch.ts`). */
const reachOf = (context: EmulatorContext): ImportReach => ({
  privateAddressesAllowed: context.config.get<boolean>(PRIVATE_IMPORTS_SETTING),
  emulatorPort: Number(new URL(context.url()).port),
});

/** The URL to fetch, with `urlParams` added; only http(s), and not an address the guard refuses at once. */
function sourceOf(context: EmulatorContext, request: ImportRequest, field: string): URL {
  let url: URL;
  try {
    url = new URL(String(request.url ?? ''));
  } catch {
    throw invalidField(`${field}.url`, 'must be an absolute http(s) URL', 'FORMAT');
  }
  if (url.protocol != 'http:' && url.protocol != 'https:')
    throw invalidField(`${field}.url`, 'must be an absolute http(s) URL', 'FORMAT');
  for (const [name, value] of Object.entries(request.urlParams ?? {})) url.searchParams.set(name, String(value));
  const problem = sourceProblem(url, reachOf(context));
  if (problem) throw invalidField(`${field}.url`, `is refused: ${problem}`, 'FORMAT');
  return url;
}

/** The file name at the end of a URL's path, if any. */
function lastSegment(url: URL): string | undefined {
  const segment = url.pathname.split('/').pop();
  try {
    return segment ? decodeURIComponent(segment) : undefined;
  } catch {
    return segment;
  }
}

/** Fetches the bytes and finishes the file; never throws (a failure makes the file FAILED). */
async function fetchInto(
  context: EmulatorContext,
  pending: FileDescriptor,
  source: URL,
  request: ImportRequest,
  uploader: string,
): Promise<void> {
  const incoming = join(mediaDirectories(context).incoming, `import-${randomBytes(12).toString('hex')}`);
  try {
    const headers = Object.fromEntries(
      Object.entries(request.urlHeaders ?? {}).map(([name, value]) => [name, String(value)]),
    );
    const response = await fetchImportSource(source, headers, reachOf(context), AbortSignal.timeout(60_000));
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      response.resume();
      throw new Error(`the source answered ${status}`);
    }
    await pipeline(response, limitTo(uploadLimit(context)), createWriteStream(incoming));
    const mimeType = request.mimeType || response.headers['content-type']?.split(';')[0] || pending.mimeType;
    const file = await describeBytes(
      context,
      incoming,
      { ...request, mimeType, fileName: request.fileName ?? pending.displayName, displayName: pending.displayName },
      pending.id,
      source.href,
    );
    context.store.transaction(() => saveFile(context.store, { ...file, createdDate: pending.createdDate }, uploader));
    context.events.publish([fileEvent(context, 'file_ready', file, request.externalInfo)]);
  } catch (error) {
    await rm(incoming, { force: true });
    const failed: FileDescriptor = { ...pending, operationStatus: 'FAILED', updatedDate: context.clock.iso() };
    try {
      context.store.transaction(() => saveFile(context.store, failed, uploader));
      context.events.publish([fileEvent(context, 'file_failed', failed, request.externalInfo)]);
    } catch {
      // The emulator closed while the import ran: nothing left to record it in.
    }
    console.warn(
      `[sitekit emulator] import of ${source.href} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Starts an import; answers the PENDING descriptor (saved). */
export function startImport(
  context: EmulatorContext,
  caller: Caller,
  request: ImportRequest,
  field = 'request',
): FileDescriptor {
  const source = sourceOf(context, request, field);
  const name = request.displayName || request.fileName || lastSegment(source) || 'imported-file';
  const mimeType = request.mimeType || mimeTypeOfName(name);
  const pending: FileDescriptor = {
    ...newDescriptor(context, newFileId(name), name, mimeType, request),
    sourceUrl: source.href,
  };
  const uploader = uploaderOf(caller);
  saveFile(context.store, pending, uploader);
  let tasks = running.get(context);
  if (!tasks) running.set(context, (tasks = new Set()));
  // Started once the request's transaction has committed, so the PENDING row is there to update.
  const task: Promise<void> = inBackground(
    new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      fetchInto(context, pending, source, request, uploader),
    ),
    `import of ${source.href}`,
  ).finally(() => tasks.delete(task));
  tasks.add(task);
  return pending;
}
