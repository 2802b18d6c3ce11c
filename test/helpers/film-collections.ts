/**
 * Two collections that refer to each other, for the tests of the commands that copy or compare a
 * whole site (pull, verify): Directors (d1-d3) and Films (f1-f7: a date, a reference to a director,
 * a multi-reference `cast`, and on f2 an undeclared nested field).
 */
import type { ApiKeyAuth, Client } from '../../src/index.js';

const ROLES = { read: 'SITE_MEMBER', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } as const;

/** Adds Directors and Films, their items and Films' cast references, to the site `admin` manages. */
export async function addFilmCollections(admin: Client<ApiKeyAuth>): Promise<void> {
  await admin.collections.createDataCollection({
    _id: 'Directors',
    permissions: ROLES,
    fields: [{ key: 'name', type: 'TEXT' }],
  });
  await admin.collections.createDataCollection({
    _id: 'Films',
    displayName: 'Films',
    permissions: ROLES,
    fields: [
      { key: 'title', type: 'TEXT' },
      { key: 'released', type: 'DATETIME' },
      { key: 'director', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'Directors' } } },
      {
        key: 'cast',
        type: 'MULTI_REFERENCE',
        typeMetadata: { multiReference: { referencedCollectionId: 'Directors' } },
      },
    ],
  });
  await admin.items.bulkInsert<{ name: string }>('Directors', [
    { _id: 'd1', name: 'Agnès Varda' },
    { _id: 'd2', name: 'Akira Kurosawa' },
    { _id: 'd3', name: 'Chantal Akerman' },
  ]);
  for (let n = 1; n <= 7; n++)
    await admin.items.insert<{ title: string; released: Date; director: string; extra?: object }>('Films', {
      _id: `f${n}`,
      title: `Film ${n}`,
      released: new Date(Date.UTC(1950 + n, n, n)),
      director: `d${(n % 3) + 1}`,
      ...(n === 2 && { extra: { nested: [1, 'two', { at: new Date(Date.UTC(2000, 0, 1)) }] } }),
    });
  await admin.items.insertReference('Films', 'cast', 'f1', ['d3', 'd1']);
  await admin.items.insertReference('Films', 'cast', 'f2', 'd2');
}
