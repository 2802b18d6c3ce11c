/** The site's collections, shared by the collection, item and browse pages. */
import { useQuery } from '@tanstack/react-query';
import type { Client } from 'sitekit-sdk';
import { queryOptions } from 'sitekit-sdk/react';

/** Lists every collection (first 100: the console is for a demo site, not a thousand collections). */
export function useCollections(client: Client) {
  return useQuery({
    ...queryOptions(client, (c, { signal }) => c.collections.listDataCollections({ paging: { limit: 100 }, signal })),
    select: (answer) => answer.collections ?? [],
  });
}

/** One collection, with its fields and permissions. */
export function useCollection(client: Client, collectionId: string) {
  return useQuery(queryOptions(client, (c, { signal }) => c.collections.getDataCollection(collectionId, { signal })));
}
