/**
 * The site media service at its real paths (`/site-media/v1/...`): upload URLs (PUT and TUS),
 * import from a URL, descriptors, signed expiring download URLs, video stream URLs, list and
 * search with cursor paging and sort, descriptor updates, trash, restore and permanent delete.
 * Files live under the data dir. Public files are served at `/_media/files/<id>`, any file through
 * a signed `/_media/download/<id>` URL.
 */
import { createReadStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readFile, rm, stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import type { components } from '../../../generated/wire.js';
import { applicationError, invalidField } from '../../errors.js';
import { atLeast } from '../../config.js';
import { eventIdentity } from '../../events.js';
import type { Caller, EmulatorContext, ServiceCall, ServiceModule } from '../../service.js';
import type { SqlValue } from '../../store/store.js';
import { pageSize } from '../data/paging.js';
import type { OperationCall, OperationInput } from '../operation-input.js';
import type { FileRequest } from './descriptors.js';
import {
  bytesPath,
  fileNotFound,
  findFile,
  mediaDirectories,
  mediaMigrations,
  requireReadableFile,
  saveFile,
  uploaderOf,
  uploaderOfFile,
  wireFile,
  type FileDescriptor,
} from './file-store.js';
import { seedMedia } from './demo.js';
import { importsSettled, startImport, type ImportRequest } from './imports.js';
import { fileEvent } from './media-events.js';
import { readDownloadUrl, signDownloadUrl } from './signed-urls.js';
import { setUserFileHeaders } from './file-headers.js';
import { cachedPreview, parsePreviewRequest } from './previews.js';
import { PRIVATE_IMPORTS_SETTING } from './import-fetch.js';
import { isRedirectTarget, requireRedirectTarget } from './redirect-target.js';
import { createTicket, registerUploadRoutes, uploadLimit, uploadMigrations } from './uploads.js';
import { zip } from './zip.js';

/** Default life of a download URL (the platform's default is 600 minutes). */
const DEFAULT_DOWNLOAD_MINUTES = 600;
const TRASH_FOLDER = 'trash-root';

/** Columns a listing may sort on, by the descriptor's field name. */
const SORTABLE: Record<string, string> = {
  displayName: 'display_name',
  sizeInBytes: 'size',
  createdDate: 'created_at',
  _createdDate: 'created_at',
  updatedDate: 'updated_at',
  _updatedDate: 'updated_at',
  mediaType: 'media_type',
};

/**
 * The origin the caller reached the emulator at (its Host header), so upload URLs work through
 * a port forward or proxy too; the emulator's own URL when there is no Host.
 */
const originOf = (call: ServiceCall<unknown>, context: EmulatorContext): string =>
  call.request.host ? `${call.request.protocol}://${call.request.host}` : context.url();

/** The upload request's fields, checked (the declared size against the limit). */
function uploadRequest(context: EmulatorContext, input: OperationInput<'generateFileUploadUrl'>): FileRequest {
  if (typeof input.mimeType != 'string' || !input.mimeType)
    throw invalidField('mimeType', 'must not be empty', 'REQUIRED_FIELD');
  const declared = input.sizeInBytes === undefined ? undefined : Number(input.sizeInBytes);
  if (declared !== undefined && (!Number.isInteger(declared) || declared < 0))
    throw invalidField('sizeInBytes', 'must be a whole number of bytes', 'FORMAT');
  if (declared !== undefined && declared > uploadLimit(context)) {
    throw applicationError(
      413,
      'PAYLOAD_TOO_LARGE',
      `The file is larger than the upload limit of ${uploadLimit(context)} bytes`,
      { limit: uploadLimit(context) },
    );
  }
  return {
    mimeType: input.mimeType,
    ...(input.fileName ? { fileName: input.fileName } : {}),
    ...(input.parentFolderId ? { parentFolderId: input.parentFolderId } : {}),
    ...(input.private !== undefined ? { private: input.private === true } : {}),
    ...(Array.isArray(input.labels) ? { labels: input.labels } : {}),
    ...(input.filePath ? { filePath: input.filePath } : {}),
    ...(input.externalInfo ? { externalInfo: input.externalInfo } : {}),
  };
}

/** The descriptors of `fileIds` the caller may read, in order; an unknown one is a 404. */
const readableFiles = (context: EmulatorContext, caller: Caller, fileIds: unknown): FileDescriptor[] => {
  if (!Array.isArray(fileIds) || !fileIds.length)
    throw invalidField('fileIds', 'must hold at least one file id', 'REQUIRED_FIELD');
  return fileIds.map((fileId) => requireReadableFile(context.store, caller, fileId));
};

/** Where a listing cursor continues: the offset of its next page, and the sort of its first. */
interface ListingCursor {
  offset: number;
  sort?: FileSort;
}

/** The place a listing cursor stands for (offset 0, no sort, without one). */
function readCursor(cursor: unknown, field: string): ListingCursor {
  if (cursor === undefined || cursor === null || cursor === '') return { offset: 0 };
  try {
    const { offset, sort } = JSON.parse(Buffer.from(String(cursor), 'base64url').toString()) as {
      offset?: unknown;
      sort?: FileSort;
    };
    if (Number.isInteger(offset) && (offset as number) >= 0)
      return { offset: offset as number, ...(sort && typeof sort == 'object' ? { sort } : {}) };
  } catch {
    // reported below
  }
  throw invalidField(field, 'is not a cursor of this listing', 'FORMAT');
}

/** What a listing or search keeps. */
interface FileFilter {
  state: 'OK' | 'DELETED';
  parentFolderId?: string;
  mediaTypes?: unknown;
  private?: boolean;
  search?: string;
  visitorUploadsOnly?: boolean;
}

type FileSort = components['schemas']['Sorting'];
type CursorPaging = components['schemas']['CursorPaging'];

/** One page of descriptors, newest first unless sorted, with cursor paging. */
function listFiles(
  context: EmulatorContext,
  caller: Caller,
  filter: FileFilter,
  sort: FileSort | undefined,
  paging: CursorPaging | undefined,
) {
  const conditions: string[] = ['state = ?'];
  const params: SqlValue[] = [filter.state];
  if (caller.kind != 'elevated') {
    conditions.push('(private = 0 OR uploader = ?)');
    params.push(uploaderOf(caller));
  }
  if (filter.parentFolderId) {
    conditions.push("json_extract(data, '$.parentFolderId') = ?");
    params.push(filter.parentFolderId);
  }
  const mediaTypes = Array.isArray(filter.mediaTypes)
    ? filter.mediaTypes
    : typeof filter.mediaTypes == 'string'
      ? [filter.mediaTypes]
      : [];
  if (mediaTypes.length) {
    conditions.push(`media_type IN (${mediaTypes.map(() => '?').join(', ')})`);
    params.push(...mediaTypes.map(String));
  }
  if (filter.private !== undefined) {
    conditions.push('private = ?');
    params.push(filter.private ? 1 : 0);
  }
  if (filter.search) {
    conditions.push("unicode_lower(display_name) LIKE ? ESCAPE '\\'");
    params.push(`%${filter.search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`);
  }
  if (filter.visitorUploadsOnly) conditions.push("uploader != 'owner'");
  // A next page keeps the first page's sort: the cursor carries it (a client sends the cursor alone).
  const cursor = readCursor(paging?.cursor, 'paging.cursor');
  sort = sort?.fieldName ? sort : cursor.sort;
  let order = 'created_at DESC, id';
  if (sort?.fieldName) {
    const column = SORTABLE[sort.fieldName];
    if (!column)
      throw invalidField('sort.fieldName', `must be one of ${Object.keys(SORTABLE).join(', ')}`, 'INVALID_ENUM_VALUE');
    if (sort.order !== undefined && sort.order != 'ASC' && sort.order != 'DESC')
      throw invalidField('sort.order', 'must be ASC or DESC', 'INVALID_ENUM_VALUE');
    order = `${column} ${sort.order ?? 'ASC'}, id`;
  }
  const limit = pageSize(paging?.limit);
  const { offset } = cursor;
  const where = conditions.join(' AND ');
  const rows = context.store.all<{ data: string }>(
    `SELECT data FROM media_files WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  const total = context.store.get<{ total: number }>(
    `SELECT count(*) AS total FROM media_files WHERE ${where}`,
    params,
  )!.total;
  const files = rows.map((row) => wireFile(context, JSON.parse(row.data) as FileDescriptor));
  const hasNext = offset + files.length < total;
  const next = hasNext
    ? Buffer.from(JSON.stringify({ offset: offset + files.length, ...(sort?.fieldName ? { sort } : {}) })).toString(
        'base64url',
      )
    : undefined;
  return { files, nextCursor: { count: files.length, total, hasNext, cursors: next ? { next } : {} } };
}

/** Changes a stored file and queues its event. */
function changeFile(
  call: ServiceCall<unknown>,
  context: EmulatorContext,
  file: FileDescriptor,
  change: Partial<FileDescriptor>,
  slug: 'updated' | 'deleted',
): FileDescriptor {
  const changed = { ...file, ...change, updatedDate: context.clock.iso() };
  saveFile(context.store, changed, uploaderOfFile(context.store, file.id) ?? 'owner');
  call.emit(fileEvent(context, slug, changed, undefined, eventIdentity(call.caller)));
  return changed;
}

const UPDATABLE = ['displayName', 'parentFolderId', 'labels', 'private'] as const;

/** Whether a field mask path names a descriptor field an update may change. */
const isUpdatable = (path: string): path is (typeof UPDATABLE)[number] =>
  (UPDATABLE as readonly string[]).includes(path);

/** Streams a file's bytes with its type and disposition, under the headers every user file gets (`file-headers.ts`). */
async function sendBytes(
  reply: FastifyReply,
  context: EmulatorContext,
  file: FileDescriptor,
  disposition: 'ATTACHMENT' | 'INLINE',
  fileName = file.displayName,
): Promise<FastifyReply> {
  const path = bytesPath(context, file.id);
  const size = (await stat(path).catch(() => undefined))?.size;
  if (size === undefined) return reply.code(404).send(fileNotFound(file.id).body);
  return setUserFileHeaders(reply, file.mimeType ?? 'application/octet-stream', disposition, fileName)
    .header('content-length', size)
    .header('cache-control', 'private, max-age=60')
    .send(createReadStream(path));
}

/** The media module. */
export const mediaService: ServiceModule = {
  name: 'media',
  migrations: [...mediaMigrations, ...uploadMigrations],
  config: {
    maxUploadBytes: {
      default: 50 * 1024 * 1024,
      description:
        'Largest file an upload or import may carry, in bytes; larger ones are refused with 413 and store nothing.',
      check: atLeast(1),
    },
    [PRIVATE_IMPORTS_SETTING]: {
      default: false,
      description:
        'Imports (importFile) may fetch from loopback and private-network addresses (local test fixtures). Off by default: a visitor could otherwise read services of this machine through an import. The emulator itself is never fetched.',
    },
  },
  operations: {
    generateFileUploadUrl(call: OperationCall<'generateFileUploadUrl'>, context) {
      const ticket = createTicket(context, call.caller, 'PUT', uploadRequest(context, call.input));
      return { uploadUrl: `${originOf(call, context)}/_uploads/files/${ticket}` };
    },
    generateFileResumableUploadUrl(call: OperationCall<'generateFileResumableUploadUrl'>, context) {
      if (call.input.uploadProtocol !== undefined && call.input.uploadProtocol != 'TUS')
        throw invalidField('uploadProtocol', 'must be TUS', 'INVALID_ENUM_VALUE');
      const ticket = createTicket(context, call.caller, 'TUS', uploadRequest(context, call.input));
      return { uploadProtocol: 'TUS', uploadUrl: `${originOf(call, context)}/_uploads/tus`, uploadToken: ticket };
    },

    importFile: (call: OperationCall<'importFile'>, context) => ({
      file: wireFile(context, startImport(context, call.caller, call.input)),
    }),
    bulkImportFiles(call: OperationCall<'bulkImportFiles'>, context) {
      const requests: ImportRequest[] = call.input.importFileRequests ?? [];
      const files = requests.map((request, index) =>
        wireFile(context, startImport(context, call.caller, request, `importFileRequests.${index}`)),
      );
      return call.input.returnEntity === false ? {} : { files };
    },
    bulkImportFile(call: OperationCall<'bulkImportFile'>, context) {
      const requests: ImportRequest[] = call.input.importFileRequests ?? [];
      const files = requests.map((request, index) =>
        startImport(context, call.caller, request, `importFileRequests.${index}`),
      );
      const results = files.map((file, originalIndex) => ({
        itemMetadata: { id: file.id, originalIndex, success: true },
        ...(call.input.returnEntity === false ? {} : { item: wireFile(context, file) }),
      }));
      return {
        results,
        bulkActionMetadata: { totalSuccesses: results.length, totalFailures: 0, undetailedFailures: 0 },
      };
    },

    getFileDescriptor: (call: OperationCall<'getFileDescriptor'>, context) => ({
      file: wireFile(context, requireReadableFile(context.store, call.caller, call.input.fileId)),
    }),
    getFileDescriptors: (call: OperationCall<'getFileDescriptors'>, context) => ({
      files: readableFiles(context, call.caller, call.input.fileIds).map((file) => wireFile(context, file)),
    }),

    updateFileDescriptor(call: OperationCall<'updateFileDescriptor'>, context) {
      const change = call.input.file ?? {};
      const file = change.id === undefined ? undefined : findFile(context.store, change.id);
      if (!file) throw fileNotFound(String(change.id));
      const mask: string[] =
        typeof call.input.fieldMask == 'string' && call.input.fieldMask
          ? call.input.fieldMask.split(',').map((path) => path.trim())
          : UPDATABLE.filter((key) => change[key] !== undefined);
      const update: Partial<FileDescriptor> = {};
      for (const path of mask) {
        if (!isUpdatable(path))
          throw invalidField(
            'fieldMask',
            `${path} cannot be updated (only ${UPDATABLE.join(', ')})`,
            'FIELD_NOT_ALLOWED',
          );
        (update as Record<string, unknown>)[path] = change[path];
      }
      if (update.displayName !== undefined && (typeof update.displayName != 'string' || !update.displayName))
        throw invalidField('file.displayName', 'must not be empty', 'REQUIRED_FIELD');
      return { file: wireFile(context, changeFile(call, context, file, update, 'updated')) };
    },

    generateFileDownloadUrl(call: OperationCall<'generateFileDownloadUrl'>, context) {
      const file = requireReadableFile(context.store, call.caller, call.input.fileId);
      const minutes = call.input.expirationInMinutes ?? DEFAULT_DOWNLOAD_MINUTES;
      if (!Number.isInteger(minutes) || minutes < 1)
        throw invalidField('expirationInMinutes', 'must be a whole number of at least 1', 'MIN');
      const url = signDownloadUrl(context, {
        fileId: file.id,
        expires: Math.floor(context.clock.now() / 1000) + minutes * 60,
        disposition: call.input.contentDisposition == 'INLINE' ? 'INLINE' : 'ATTACHMENT',
        ...(call.input.downloadFileName ? { fileName: call.input.downloadFileName } : {}),
        ...(call.input.expirationRedirectUrl
          ? { expiredRedirect: requireRedirectTarget(call.input.expirationRedirectUrl, 'expirationRedirectUrl') }
          : {}),
      });
      return { downloadUrls: [{ url, assetKey: 'src' }] };
    },
    generateFilesDownloadUrl(call: OperationCall<'generateFilesDownloadUrl'>, context) {
      const files = readableFiles(context, call.caller, call.input.fileIds);
      const expires = Math.floor(context.clock.now() / 1000) + DEFAULT_DOWNLOAD_MINUTES * 60;
      // Several files come as one ZIP archive; the ids travel (signed) in the URL.
      const fileId = files.map((file) => file.id).join(',');
      return {
        downloadUrl: signDownloadUrl(context, {
          fileId,
          expires,
          disposition: 'ATTACHMENT',
          ...(files.length > 1 ? { fileName: 'files.zip' } : {}),
        }),
      };
    },
    generateVideoStreamingUrl(call: OperationCall<'generateVideoStreamingUrl'>, context) {
      const file = requireReadableFile(context.store, call.caller, call.input.fileId);
      if (file.mediaType != 'VIDEO') throw applicationError(400, 'NOT_A_VIDEO', `File ${file.id} is not a video`);
      // No transcoding offline: HLS and DASH requests get the original file, streamed inline.
      const url = signDownloadUrl(context, {
        fileId: file.id,
        expires: Math.floor(context.clock.now() / 1000) + DEFAULT_DOWNLOAD_MINUTES * 60,
        disposition: 'INLINE',
      });
      return { downloadUrl: { url, assetKey: 'src' } };
    },

    listFiles: (call: OperationCall<'listFiles'>, context) =>
      listFiles(
        context,
        call.caller,
        {
          state: 'OK',
          parentFolderId: call.input.parentFolderId,
          mediaTypes: call.input.mediaTypes,
          private: call.input.private,
        },
        call.input.sort,
        call.input.paging,
      ),
    searchFiles(call: OperationCall<'searchFiles'>, context) {
      const root = call.input.rootFolder ?? 'MEDIA_ROOT';
      if (root == 'TRASH_ROOT' && call.caller.kind != 'elevated')
        throw applicationError(
          403,
          'PERMISSION_DENIED',
          'Searching the trash requires an elevated client (an API key)',
        );
      const filter: FileFilter = {
        state: root == 'TRASH_ROOT' ? 'DELETED' : 'OK',
        mediaTypes: call.input.mediaTypes,
        private: call.input.private,
        search: call.input.search,
        visitorUploadsOnly: root == 'VISITOR_UPLOADS_ROOT',
      };
      return listFiles(context, call.caller, filter, call.input.sort, call.input.paging);
    },
    listDeletedFiles: (call: OperationCall<'listDeletedFiles'>, context) =>
      listFiles(
        context,
        call.caller,
        { state: 'DELETED', mediaTypes: call.input.mediaTypes, private: call.input.private },
        call.input.sort,
        call.input.paging,
      ),

    bulkDeleteFiles: {
      manageTransactions: true,
      async handle(call: OperationCall<'bulkDeleteFiles'>, context) {
        const removed = context.store.transaction(() => {
          const files = readableFiles(context, call.caller, call.input.fileIds);
          if (call.input.permanent === true) {
            for (const file of files) {
              context.store.run('DELETE FROM media_files WHERE id = ?', [file.id]);
              call.emit(fileEvent(context, 'deleted', file, undefined, eventIdentity(call.caller)));
            }
            return files;
          }
          for (const file of files) {
            if (file.state == 'DELETED') continue;
            changeFile(
              call,
              context,
              file,
              { state: 'DELETED', parentFolderId: TRASH_FOLDER, restoreFolderId: file.parentFolderId },
              'deleted',
            );
          }
          return [];
        });
        // Bytes go only once their rows are gone for good.
        await Promise.all(removed.map((file) => rm(bytesPath(context, file.id), { force: true })));
        return {};
      },
    },
    bulkRestoreFilesFromTrashBin(call: OperationCall<'bulkRestoreFilesFromTrashBin'>, context) {
      for (const file of readableFiles(context, call.caller, call.input.fileIds)) {
        if (file.state != 'DELETED') continue;
        changeFile(
          call,
          context,
          file,
          { state: 'OK', parentFolderId: file.restoreFolderId ?? 'media-root', restoreFolderId: undefined },
          'updated',
        );
      }
      return {};
    },
  },

  async routes(app, context) {
    await registerUploadRoutes(app, context);

    app.get('/_media/files/:fileId', async (request, reply) => {
      const file = findFile(context.store, (request.params as { fileId: string }).fileId);
      // Private and trashed files are not public: they need a signed download URL.
      if (!file || file.state != 'OK' || file.private || file.operationStatus != 'READY')
        return reply.code(404).send(fileNotFound((request.params as { fileId: string }).fileId).body);
      return sendBytes(reply, context, file, 'INLINE');
    });

    // A scaled preview, asked for as the platform's image URLs ask (`previews.ts`); the original
    // when the emulator cannot scale the image or it is no larger than the box.
    app.get('/_media/files/:fileId/v1/:mode/:parameters/:fileName', async (request, reply) => {
      const { fileId, mode, parameters } = request.params as { fileId: string; mode: string; parameters: string };
      const file = findFile(context.store, fileId);
      if (!file || file.state != 'OK' || file.private || file.operationStatus != 'READY')
        return reply.code(404).send(fileNotFound(fileId).body);
      const preview = parsePreviewRequest(mode, parameters);
      if (!preview)
        return reply
          .code(400)
          .send(
            invalidField(
              'size',
              'must be /v1/fill/ or /v1/fit/ then w_<width>,h_<height> (1 to 2048 pixels each)',
              'FORMAT',
            ).body,
          );
      const scaled =
        file.mediaType == 'IMAGE'
          ? await cachedPreview(file.hash, () => readFile(bytesPath(context, file.id)), preview)
          : null;
      if (!scaled) return sendBytes(reply, context, file, 'INLINE');
      return setUserFileHeaders(reply, 'image/png', 'INLINE', file.displayName)
        .header('content-length', scaled.length)
        .header('cache-control', 'private, max-age=60')
        .send(scaled);
    });

    app.get('/_media/download/:fileIds', async (request, reply) => {
      const fileIds = (request.params as { fileIds: string }).fileIds;
      const grant = readDownloadUrl(context, fileIds, request.query as Record<string, unknown>);
      if (!grant)
        return reply
          .code(403)
          .send(
            applicationError(403, 'INVALID_SIGNATURE', 'The download URL is not valid (wrong or missing signature)')
              .body,
          );
      if (grant.expires * 1000 <= context.clock.now()) {
        // Checked again here: a URL signed before the check existed may carry any target.
        if (grant.expiredRedirect && isRedirectTarget(grant.expiredRedirect))
          return reply.code(302).header('location', grant.expiredRedirect).send();
        return reply.code(403).send(applicationError(403, 'URL_EXPIRED', 'The download URL has expired').body);
      }
      const files = fileIds.split(',').map((fileId) => findFile(context.store, fileId));
      if (files.some((file) => !file || file.state != 'OK')) return reply.code(404).send(fileNotFound(fileIds).body);
      if (files.length == 1) return sendBytes(reply, context, files[0]!, grant.disposition, grant.fileName);
      const names = new Set<string>();
      const entries = await Promise.all(
        files.map(async (file) => {
          let name = file!.displayName;
          for (let copy = 1; names.has(name); copy++) name = `${copy}-${file!.displayName}`;
          names.add(name);
          return { name, bytes: await readFile(bytesPath(context, file!.id)) };
        }),
      );
      return setUserFileHeaders(reply, 'application/zip', 'ATTACHMENT', grant.fileName ?? 'files.zip').send(
        zip(entries),
      );
    });

    app.addHook('onClose', async () => {
      await importsSettled(context);
      mediaDirectories(context).dispose();
    });
  },

  seed: seedMedia,

  reset(context) {
    // After a reset or an import: bytes whose rows are gone go too, and so do uploads in progress.
    const directories = mediaDirectories(context);
    const kept = new Set(
      context.store
        .all<{ id: string }>('SELECT id FROM media_files')
        .map((row) => basename(bytesPath(context, row.id))),
    );
    for (const name of readdirSync(directories.files))
      if (!kept.has(name)) rmSync(join(directories.files, name), { force: true });
    for (const directory of [directories.incoming, directories.tus]) {
      rmSync(directory, { recursive: true, force: true });
      mkdirSync(directory, { recursive: true });
    }
  },
};
