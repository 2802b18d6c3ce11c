/** A site's collections as the `types` and `pull` commands read them, through the SDK. */
import type { ApiKeyAuth, Client, DataCollection } from '../src/index.js';
import type { SampledFields } from './site-types.js';

/** Collections per page of `listDataCollections`. */
const COLLECTIONS_PAGE = 100;

/** Every collection of the site, page after page. */
export async function readCollections(client: Client<ApiKeyAuth>): Promise<DataCollection[]> {
  const collections: DataCollection[] = [];
  for (let offset = 0; ; offset += COLLECTIONS_PAGE) {
    const page = await client.collections.listDataCollections({ paging: { limit: COLLECTIONS_PAGE, offset } });
    const found = page.collections ?? [];
    collections.push(...found);
    if (found.length < COLLECTIONS_PAGE) return collections;
  }
}

/**
 * The values of fields that the first `sampleSize` items of each collection carry but the
 * collection does not declare (system fields aside).
 */
export async function sampleUndeclaredFields(
  client: Client<ApiKeyAuth>,
  collections: readonly DataCollection[],
  sampleSize: number,
): Promise<SampledFields> {
  // Keyed by remote names (`__proto__`, `constructor` included): objects without a prototype.
  const sampled: SampledFields = Object.create(null);
  for (const collection of collections) {
    const id = collection._id;
    if (!id) continue;
    const declared = new Set((collection.fields ?? []).map((field) => field.key));
    const values: Record<string, unknown[]> = Object.create(null);
    const page = await client.items.query<Record<string, unknown>>(id).limit(sampleSize).find();
    for (const item of page.items)
      for (const [key, value] of Object.entries(item))
        if (!declared.has(key) && !key.startsWith('_')) (values[key] ??= []).push(value);
    if (Object.keys(values).length > 0) sampled[id] = values;
  }
  return sampled;
}
