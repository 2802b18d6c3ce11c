/**
 * Turning received bytes into a file descriptor: id, hash, size, media type, image width and
 * height read from the bytes, URLs. Also the descriptor of an import that is still being fetched.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, writeFileSync } from 'node:fs';
import { open, rename, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { EmulatorContext } from '../../service.js';
import { bytesPath, MEDIA_PATH, type FileDescriptor } from './file-store.js';
import { imageSize } from './image-size.js';
import { mediaTypeOf, mimeTypeOfName, type MediaType } from './media-types.js';
import { previewUrl, THUMBNAIL_SIZE } from './previews.js';

/** What the uploader said about a file (the upload-URL or import request). */
export interface FileRequest {
  mimeType?: string;
  fileName?: string;
  displayName?: string;
  parentFolderId?: string;
  private?: boolean;
  labels?: string[];
  filePath?: string;
  externalInfo?: Record<string, unknown>;
}

/** Enough of an image's start to find its size (JPEG frames come after the metadata). */
const HEADER_BYTES = 512 * 1024;

/** A new file id in the platform's style: `<hex>_<hex>~mv2.<extension>`. */
export function newFileId(fileName: string): string {
  const extension = extname(fileName)
    .toLowerCase()
    .replace(/[^a-z0-9.]/g, '');
  return `${randomBytes(3).toString('hex')}_${randomBytes(16).toString('hex')}~mv2${extension}`;
}

/** The folder a request puts a file in. */
export const folderOf = (request: FileRequest): string => request.parentFolderId || 'media-root';

const md5Of = (path: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash('md5');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });

async function headerOf(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Where a file's bytes are served (public files only; private ones need a signed URL). Stored
 * as a path: answers make it absolute with the emulator's URL of the moment (see `wireFile`).
 */
export const filePath = (fileId: string): string => `${MEDIA_PATH}files/${encodeURIComponent(fileId)}`;

/** The type-specific `media` part of a descriptor. */
function mediaOf(
  mediaType: MediaType,
  fileId: string,
  url: string,
  fileName: string,
  size: { width: number; height: number } | undefined,
): Record<string, unknown> {
  const picture = { id: fileId, url, filename: fileName, ...(size ?? {}) };
  switch (mediaType) {
    case 'IMAGE':
      return { image: { image: picture, previewImage: picture } };
    case 'VECTOR':
      return { vector: { image: picture } };
    case 'VIDEO':
      return {
        video: {
          id: fileId,
          url,
          filename: fileName,
          resolutions: [{ url, format: extname(fileName).slice(1) || 'mp4' }],
          posters: [],
        },
      };
    case 'AUDIO':
      return { audio: { id: fileId, assets: [{ url, format: extname(fileName).slice(1) }] } };
    case 'DOCUMENT':
      return { document: { id: fileId, url, filename: fileName } };
    case 'ARCHIVE':
      return { archive: { id: fileId, url, filename: fileName } };
    default:
      return {};
  }
}

/** What is known of a file's bytes once they are all there. */
interface Contents {
  /** MD5, hex. */
  hash: string;
  sizeInBytes: number;
  /** The first bytes (enough to read an image's size). */
  header: Buffer;
}

/** The READY descriptor of stored bytes. */
function readyDescriptor(
  context: EmulatorContext,
  id: string,
  request: FileRequest,
  contents: Contents,
  sourceUrl?: string,
): FileDescriptor {
  const fileName = request.fileName || request.displayName || 'file';
  const descriptor = newDescriptor(
    context,
    id,
    request.displayName || fileName,
    request.mimeType || mimeTypeOfName(fileName),
    request,
  );
  const size =
    descriptor.mediaType == 'IMAGE' || descriptor.mediaType == 'VECTOR' ? imageSize(contents.header) : undefined;
  return {
    ...descriptor,
    hash: contents.hash,
    sizeInBytes: String(contents.sizeInBytes),
    media: mediaOf(descriptor.mediaType, id, descriptor.url, descriptor.displayName, size),
    operationStatus: 'READY',
    ...(sourceUrl ? { sourceUrl } : {}),
    // A scaled preview, as the platform's thumbnails are: a grid never loads the originals.
    ...(descriptor.mediaType == 'IMAGE'
      ? {
          thumbnailUrl: previewUrl(descriptor.url, descriptor.displayName, {
            mode: 'fill',
            width: THUMBNAIL_SIZE,
            height: THUMBNAIL_SIZE,
          }),
        }
      : {}),
  };
}

/**
 * Moves received bytes (`incomingPath`) to the file store and describes them. `fileId` keeps the
 * id of a pending import. The caller saves the descriptor.
 */
export async function describeBytes(
  context: EmulatorContext,
  incomingPath: string,
  request: FileRequest,
  fileId?: string,
  sourceUrl?: string,
): Promise<FileDescriptor> {
  const id = fileId ?? newFileId(request.fileName || request.displayName || 'file');
  const path = bytesPath(context, id);
  await rename(incomingPath, path);
  const contents = { header: await headerOf(path), sizeInBytes: (await stat(path)).size, hash: await md5Of(path) };
  return readyDescriptor(context, id, request, contents, sourceUrl);
}

/** Stores bytes held in memory (demo files) and describes them, synchronously. The caller saves the descriptor. */
export function describeBuffer(context: EmulatorContext, bytes: Buffer, request: FileRequest): FileDescriptor {
  const id = newFileId(request.fileName || request.displayName || 'file');
  writeFileSync(bytesPath(context, id), bytes);
  return readyDescriptor(context, id, request, {
    header: bytes.subarray(0, HEADER_BYTES),
    sizeInBytes: bytes.length,
    hash: createHash('md5').update(bytes).digest('hex'),
  });
}

/** A descriptor without content yet (no bytes, PENDING): what an import answers at once, and the base of every descriptor. */
export function newDescriptor(
  context: EmulatorContext,
  id: string,
  displayName: string,
  mimeType: string,
  request: FileRequest,
): FileDescriptor {
  const now = context.clock.iso();
  return {
    id,
    displayName,
    url: filePath(id),
    parentFolderId: folderOf(request),
    hash: '',
    sizeInBytes: '0',
    private: request.private === true,
    mediaType: mediaTypeOf(mimeType),
    media: {},
    operationStatus: 'PENDING',
    labels: request.labels ?? [],
    createdDate: now,
    updatedDate: now,
    siteId: context.site.siteId,
    state: 'OK',
    mimeType,
  };
}
