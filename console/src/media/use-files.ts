/** The Media Manager's files (and its trash) as queries, newest first. */
import { useQuery } from '@tanstack/react-query';
import type { Client } from 'sitekit-sdk';
import { QUERY_KEY_ROOT, queryOptions } from 'sitekit-sdk/react';

/** The key prefix of every media query; an upload (which is not a TanStack mutation) invalidates it. */
export const mediaKey = [QUERY_KEY_ROOT, 'media'] as const;

/** Up to 100 files, newest first; `trash` lists the deleted ones instead. */
export function useFiles(client: Client, { trash = false } = {}) {
  const request = { paging: { limit: 100 }, sort: { fieldName: 'updatedDate', order: 'DESC' as const } };
  return useQuery({
    ...queryOptions(client, (c, { signal }) =>
      trash ? c.media.listDeletedFiles({ ...request, signal }) : c.media.listFiles({ ...request, signal }),
    ),
    select: (answer) => answer.files ?? [],
  });
}
