/** Listing and searching descriptors (`listFiles`, `searchFiles`, `listDeletedFiles`): filters, sort and cursor paging in SQL. */
import type { components } from '../../../generated/wire.js';
import { applicationError, invalidField } from '../../errors.js';
import type { Caller, EmulatorContext } from '../../service.js';
import type { SqlValue } from '../../store/store.js';
import { pageSize } from '../data/paging.js';
import type { OperationCall } from '../operation-input.js';
import { uploaderOf, wireFile, type FileDescriptor } from './file-store.js';

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

type FileSort = components['schemas']['Sorting'];

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
export interface FileFilter {
  state: 'OK' | 'DELETED';
  parentFolderId?: string;
  mediaTypes?: unknown;
  private?: boolean;
  search?: string;
  visitorUploadsOnly?: boolean;
}

type CursorPaging = components['schemas']['CursorPaging'];

/** One page of descriptors, newest first unless sorted, with cursor paging. */
export function listFiles(
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

/** `searchFiles`: by name within a root (the media, the visitors' uploads, or the trash for elevated callers). */
export function searchFiles(call: OperationCall<'searchFiles'>, context: EmulatorContext) {
  const root = call.input.rootFolder ?? 'MEDIA_ROOT';
  if (root == 'TRASH_ROOT' && call.caller.kind != 'elevated')
    throw applicationError(403, 'PERMISSION_DENIED', 'Searching the trash requires an elevated client (an API key)');
  const filter: FileFilter = {
    state: root == 'TRASH_ROOT' ? 'DELETED' : 'OK',
    mediaTypes: call.input.mediaTypes,
    private: call.input.private,
    search: call.input.search,
    visitorUploadsOnly: root == 'VISITOR_UPLOADS_ROOT',
  };
  return listFiles(context, call.caller, filter, call.input.sort, call.input.paging);
}
