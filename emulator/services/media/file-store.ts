/**
 * File descriptors as stored (the wire form as JSON, with the columns lists sort and filter on)
 * and the files' bytes on disk: `<data dir>/media/files/<id>`, or a temporary directory with
 * `--memory`, removed when the emulator closes.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applicationError, invalidField } from '../../errors.js';
import type { Caller, EmulatorContext } from '../../service.js';
import type { Migration, Store } from '../../store/store.js';
import type { MediaType } from './media-types.js';
import { perSite } from '../../per-site.js';

/** A file descriptor in wire form. */
export interface FileDescriptor {
  id: string;
  displayName: string;
  url: string;
  parentFolderId: string;
  hash: string;
  sizeInBytes: string;
  private: boolean;
  mediaType: MediaType;
  media: Record<string, unknown>;
  operationStatus: 'PENDING' | 'READY' | 'FAILED';
  sourceUrl?: string;
  thumbnailUrl?: string;
  labels: string[];
  createdDate: string;
  updatedDate: string;
  siteId: string;
  state: 'OK' | 'DELETED';
  /** Not on the wire: the MIME type the bytes are served with. */
  mimeType?: string;
  /** Not on the wire: the folder a trashed file is restored to. */
  restoreFolderId?: string;
}

/** Who uploaded a file: `owner` (API key), `member:<id>` or `visitor:<id>`. */
export const uploaderOf = (caller: Pick<Caller, 'kind' | 'memberId' | 'visitorId'>): string =>
  caller.kind == 'elevated'
    ? 'owner'
    : caller.kind == 'member'
      ? `member:${caller.memberId}`
      : `visitor:${caller.visitorId ?? 'anonymous'}`;

export const mediaMigrations: Migration[] = [
  {
    id: 'media-001-files',
    sql: `CREATE TABLE media_files (
      id TEXT PRIMARY KEY,
      state TEXT NOT NULL,
      display_name TEXT NOT NULL,
      size INTEGER NOT NULL,
      media_type TEXT NOT NULL,
      private INTEGER NOT NULL,
      uploader TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      data TEXT NOT NULL
    );
    CREATE INDEX media_files_by_state ON media_files (state, created_at)`,
  },
];

/** The descriptor with this id, or undefined. */
export function findFile(store: Store, fileId: string): FileDescriptor | undefined {
  const row = store.get<{ data: string }>('SELECT data FROM media_files WHERE id = ?', [fileId]);
  return row ? (JSON.parse(row.data) as FileDescriptor) : undefined;
}

/** 404 of a file that does not exist (or that the caller may not see). */
export const fileNotFound = (fileId: string) =>
  applicationError(404, 'FILE_NOT_FOUND', `File ${fileId} not found`, { fileId });

/** The uploader of a stored file. */
export const uploaderOfFile = (store: Store, fileId: string): string | undefined =>
  store.get<{ uploader: string }>('SELECT uploader FROM media_files WHERE id = ?', [fileId])?.uploader;

/** Whether the caller may read the file: elevated callers any, others public files and their own uploads. */
export function canRead(store: Store, caller: Caller, file: FileDescriptor): boolean {
  return caller.kind == 'elevated' || !file.private || uploaderOfFile(store, file.id) == uploaderOf(caller);
}

/** The descriptor, when the caller may read it; else a 404. */
export function requireReadableFile(store: Store, caller: Caller, fileId: unknown): FileDescriptor {
  const file = typeof fileId == 'string' ? findFile(store, fileId) : undefined;
  if (!file || !canRead(store, caller, file)) throw fileNotFound(String(fileId));
  return file;
}

/** The descriptors of `fileIds` the caller may read, in order; an unknown one is a 404. */
export const readableFiles = (context: EmulatorContext, caller: Caller, fileIds: unknown): FileDescriptor[] => {
  if (!Array.isArray(fileIds) || !fileIds.length)
    throw invalidField('fileIds', 'must hold at least one file id', 'REQUIRED_FIELD');
  return fileIds.map((fileId) => requireReadableFile(context.store, caller, fileId));
};

/** Writes a descriptor (insert or replace); `uploader` is kept from the first write. */
export function saveFile(store: Store, file: FileDescriptor, uploader: string): FileDescriptor {
  store.run(
    `INSERT INTO media_files (id, state, display_name, size, media_type, private, uploader, created_at, updated_at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET state = excluded.state, display_name = excluded.display_name, size = excluded.size, media_type = excluded.media_type,
       private = excluded.private, updated_at = excluded.updated_at, data = excluded.data`,
    [
      file.id,
      file.state,
      file.displayName,
      Number(file.sizeInBytes),
      file.mediaType,
      file.private ? 1 : 0,
      uploader,
      file.createdDate,
      file.updatedDate,
      JSON.stringify(file),
    ],
  );
  return file;
}

/** The path prefix of the emulator's media URLs. */
export const MEDIA_PATH = '/_media/';

/** Every media path in `value` made absolute with `base` (URLs are stored as paths, so a new port never leaves them stale). */
function absolute(value: unknown, base: string): unknown {
  if (typeof value == 'string') return value.startsWith(MEDIA_PATH) ? base + value : value;
  if (Array.isArray(value)) return value.map((entry) => absolute(entry, base));
  if (value && typeof value == 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, absolute(entry, base)]));
  return value;
}

/** The descriptor as the API answers it: absolute URLs, without the internal fields. */
export function wireFile(
  context: EmulatorContext,
  file: FileDescriptor,
): Omit<FileDescriptor, 'mimeType' | 'restoreFolderId'> {
  const { mimeType: _mimeType, restoreFolderId: _restoreFolderId, ...wire } = file;
  return absolute(wire, context.url()) as Omit<FileDescriptor, 'mimeType' | 'restoreFolderId'>;
}

/** Where one emulator keeps its media bytes. */
export interface MediaDirectories {
  /** Finished files, by id. */
  files: string;
  /** Uploads in progress (PUT bodies being received, imports). */
  incoming: string;
  /** Resumable (TUS) uploads in progress. */
  tus: string;
  /** Removes a temporary root (memory mode); nothing for a data dir. */
  dispose(): void;
}

/** The media directories of a site, created on first use. */
export const mediaDirectories = perSite<MediaDirectories>((context) => {
  const temporary = !context.dataDir;
  const root = context.dataDir
    ? join(context.dataDir, 'media')
    : mkdtempSync(join(tmpdir(), 'sitekit-emulator-media-'));
  const files = join(root, 'files');
  const incoming = join(root, 'incoming');
  const tus = join(root, 'tus');
  for (const directory of [files, incoming, tus]) mkdirSync(directory, { recursive: true });
  return { files, incoming, tus, dispose: () => temporary && rmSync(root, { recursive: true, force: true }) };
});

/**
 * The path of a file's bytes. File ids are generated here, but an imported or seeded state may carry
 * any id: every character outside a plain name becomes `_`, and so does every dot of an id made only
 * of dots (`.` and `..` would name the folder itself or its parent).
 */
export function bytesPath(context: EmulatorContext, fileId: string): string {
  const name = fileId.replace(/[^A-Za-z0-9_.~-]/g, '_');
  return join(mediaDirectories(context).files, /^\.*$/.test(name) ? name.replace(/\./g, '_') || '_' : name);
}
