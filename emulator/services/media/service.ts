/**
 * The site media service at its real paths (`/site-media/v1/...`): upload URLs (PUT and TUS),
 * import from a URL, descriptors, signed expiring download URLs, video stream URLs, list and
 * search with cursor paging and sort, descriptor updates, trash, restore and permanent delete.
 * Files live under the data dir. This file is the module's table; each concept has its file:
 * ./upload-urls.ts, ./imports.ts, ./listing.ts, ./file-changes.ts, ./download-urls.ts, and the
 * routes that serve the bytes, ./file-routes.ts (./uploads.ts receives them).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { atLeast } from '../../config.js';
import type { ServiceModule } from '../../service.js';
import type { OperationCall } from '../operation-input.js';
import { seedMedia } from './demo.js';
import { downloadUrl, filesDownloadUrl, videoStreamingUrl } from './download-urls.js';
import { deleteFiles, restoreFiles, updateDescriptor } from './file-changes.js';
import { registerFileRoutes } from './file-routes.js';
import {
  bytesPath,
  mediaDirectories,
  mediaMigrations,
  readableFiles,
  requireReadableFile,
  wireFile,
} from './file-store.js';
import { PRIVATE_IMPORTS_SETTING } from './import-fetch.js';
import { importsSettled, startImport, type ImportRequest } from './imports.js';
import { listFiles, searchFiles } from './listing.js';
import { resumableUploadUrl, uploadUrl } from './upload-urls.js';
import { registerUploadRoutes, uploadMigrations } from './uploads.js';
import { fileEntities } from './entities.js';

/** The media module. */
export const mediaService: ServiceModule = {
  name: 'media',
  entities: fileEntities,
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
    generateFileUploadUrl: uploadUrl,
    generateFileResumableUploadUrl: resumableUploadUrl,

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

    updateFileDescriptor: updateDescriptor,

    generateFileDownloadUrl: downloadUrl,
    generateFilesDownloadUrl: filesDownloadUrl,
    generateVideoStreamingUrl: videoStreamingUrl,

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
    searchFiles,
    listDeletedFiles: (call: OperationCall<'listDeletedFiles'>, context) =>
      listFiles(
        context,
        call.caller,
        { state: 'DELETED', mediaTypes: call.input.mediaTypes, private: call.input.private },
        call.input.sort,
        call.input.paging,
      ),

    bulkDeleteFiles: { manageTransactions: true, handle: deleteFiles },
    bulkRestoreFilesFromTrashBin: restoreFiles,
  },

  async routes(app, sites) {
    await registerUploadRoutes(app, sites);
    registerFileRoutes(app, sites);
  },

  start(context) {
    return async () => {
      await importsSettled(context);
      mediaDirectories(context).dispose();
    };
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
    // Only when there is something to drop: emptying a folder costs milliseconds of disk, which a
    // snapshot restored before every test would pay each time.
    for (const directory of [directories.incoming, directories.tus]) {
      if (!readdirSync(directory).length) continue;
      rmSync(directory, { recursive: true, force: true });
      mkdirSync(directory, { recursive: true });
    }
  },
};
