/** A file's media type (IMAGE, VIDEO, ...) from its MIME type, and MIME types from file names. */
import { extname } from 'node:path';

/** The platform's media types. */
export type MediaType = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'DOCUMENT' | 'VECTOR' | 'ARCHIVE' | 'MODEL3D' | 'OTHER';

const ARCHIVES = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/x-tar',
  'application/gzip',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
]);
const DOCUMENTS = /^(text\/|application\/(pdf|msword|rtf|json|xml|vnd\.(ms-|openxmlformats|oasis)))/;

/** The media type of a MIME type. */
export function mediaTypeOf(mimeType: string): MediaType {
  const mime = mimeType.toLowerCase().split(';')[0]!.trim();
  if (mime == 'image/svg+xml') return 'VECTOR';
  if (mime.startsWith('image/')) return 'IMAGE';
  if (mime.startsWith('video/')) return 'VIDEO';
  if (mime.startsWith('audio/')) return 'AUDIO';
  if (mime.startsWith('model/')) return 'MODEL3D';
  if (ARCHIVES.has(mime)) return 'ARCHIVE';
  if (DOCUMENTS.test(mime)) return 'DOCUMENT';
  return 'OTHER';
}

const BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.glb': 'model/gltf-binary',
};

/** The MIME type a file name suggests (`application/octet-stream` when unknown). */
export const mimeTypeOfName = (fileName: string): string =>
  BY_EXTENSION[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
