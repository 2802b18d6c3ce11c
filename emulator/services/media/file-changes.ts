/**
 * Changes to stored descriptors (`updateFileDescriptor`, the trash and its restore, permanent
 * deletes), each with its `file_descriptor` event.
 */
import { rm } from 'node:fs/promises';
import { invalidField } from '../../errors.js';
import { eventIdentity } from '../../events.js';
import type { EmulatorContext, ServiceCall } from '../../service.js';
import type { OperationCall } from '../operation-input.js';
import {
  bytesPath,
  fileNotFound,
  findFile,
  readableFiles,
  saveFile,
  uploaderOfFile,
  wireFile,
  type FileDescriptor,
} from './file-store.js';
import { fileEvent } from './media-events.js';

/** The folder trashed files are listed in. */
const TRASH_FOLDER = 'trash-root';

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

/** `updateFileDescriptor`: the fields its mask names (or those the change carries), of {@link UPDATABLE} only. */
export function updateDescriptor(call: OperationCall<'updateFileDescriptor'>, context: EmulatorContext) {
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
      throw invalidField('fieldMask', `${path} cannot be updated (only ${UPDATABLE.join(', ')})`, 'FIELD_NOT_ALLOWED');
    (update as Record<string, unknown>)[path] = change[path];
  }
  if (update.displayName !== undefined && (typeof update.displayName != 'string' || !update.displayName))
    throw invalidField('file.displayName', 'must not be empty', 'REQUIRED_FIELD');
  return { file: wireFile(context, changeFile(call, context, file, update, 'updated')) };
}

/**
 * `bulkDeleteFiles`: to the trash, or for good with `permanent` (rows in one transaction, then
 * their bytes: bytes go only once their rows are gone for good).
 */
export async function deleteFiles(call: OperationCall<'bulkDeleteFiles'>, context: EmulatorContext) {
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
  await Promise.all(removed.map((file) => rm(bytesPath(context, file.id), { force: true })));
  return {};
}

/** `bulkRestoreFilesFromTrashBin`: trashed files back to the folder they left. */
export function restoreFiles(call: OperationCall<'bulkRestoreFilesFromTrashBin'>, context: EmulatorContext) {
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
}
