/**
 * The files section of an export (version 2): media file descriptors as the media API answers
 * them, with the emulator's own URLs relative (`/_media/...`), as it stores them. The bytes are
 * not in the file: `pull --media` writes them beside it (`control/seed-media.ts`).
 */
import { invalidField } from '../../errors.js';
import type { EntitySections } from '../../service.js';
import { checkStoredValue } from '../../untrusted-json.js';
import { entityIdProblem } from '../../control/state-rows.js';
import { saveFile, type FileDescriptor } from './file-store.js';

/** Who imported files belong to: the export keeps the platform's descriptor, which names no uploader. */
const IMPORTED_UPLOADER = 'owner';

/** The files section. */
export const fileEntities: EntitySections = {
  export: ({ store }) => ({
    files: store
      .all<{ data: string }>('SELECT data FROM media_files ORDER BY rowid')
      .map((row) => JSON.parse(row.data) as Record<string, unknown>),
  }),
  import({ store }, { files }) {
    files.forEach((file, index) => {
      const at = `files.${index}`;
      const problem = typeof file.id == 'string' ? entityIdProblem(file.id) : 'must be a file id';
      if (problem) throw invalidField(`${at}.id`, problem);
      for (const key of ['createdDate', 'updatedDate'])
        if (typeof file[key] != 'string') throw invalidField(`${at}.${key}`, 'must be an ISO time');
      checkStoredValue(file, at);
      // What the listing columns need, when the site's descriptor leaves it out (after its own fields: their order is kept).
      const descriptor = {
        ...file,
        state: file.state ?? 'OK',
        displayName: file.displayName ?? '',
        sizeInBytes: file.sizeInBytes ?? '0',
        mediaType: file.mediaType ?? 'UNKNOWN',
        private: file.private ?? false,
      } as unknown as FileDescriptor;
      saveFile(store, descriptor, IMPORTED_UPLOADER);
    });
  },
};
