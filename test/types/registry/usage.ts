/**
 * Compiled by test/cli/types.test.ts next to the file `sitekit-sdk types` wrote for a
 * site with the demo `Movies` and an `Everything` collection (every field type): no generic is
 * written, the registration types every call. Each `@ts-expect-error` must meet an error (an unused
 * one fails the compilation), so the wrong cases are checked as much as the right ones. Not part of
 * the repository's own compilation (tsconfig.json excludes this folder): the registration is global.
 */
import { createClient } from 'sitekit-sdk';
import type { Everything, Movie } from './site-types.js';

const client = createClient({});

export async function typedByCollectionId(): Promise<void> {
  // Field names and values are checked in every builder method.
  const query = client.items
    .query('Movies')
    .eq('title', 'The Last Signal')
    .ge('year', 1970)
    .between('rating', 5, 9)
    .hasSome('genres', ['Drama'])
    .gt('releaseDate', new Date(0))
    .ascending('year')
    .descending('_createdDate')
    .fields('title', 'year')
    .include('title');
  const page = await query.find();
  const first: Movie | undefined = page.items[0];
  const title: string | undefined = first?.title;
  const id: string | undefined = first?._id;
  void [title, id];

  // @ts-expect-error not a field of Movies
  client.items.query('Movies').eq('titel', 'x');
  // @ts-expect-error a year is a number
  client.items.query('Movies').ge('year', '1970');
  // @ts-expect-error not a field of Movies
  client.items.query('Movies').ascending('yeer');
  // @ts-expect-error not a collection of the site
  client.items.query('Moviez');

  const rows = await client.items.aggregate('Movies').group('year').count().run();
  const year: number | undefined = rows.items[0]?.year;
  void year;
  // @ts-expect-error not a field of Movies
  client.items.aggregate('Movies').group('yr');

  const inserted = await client.items.insert('Movies', { title: 'New', year: 2026, genres: ['Drama'] });
  const insertedId: string = inserted._id;
  void insertedId;
  // @ts-expect-error a year is a number
  await client.items.insert('Movies', { title: 'New', year: 'this year' });
  // @ts-expect-error not a collection of the site
  await client.items.insert('Moviez', { title: 'New' });

  const got = await client.items.get('Movies', 'movie-001');
  const released: Date | undefined = got?.releaseDate;
  void released;
  // @ts-expect-error a title is text
  client.items.patch('Movies', 'movie-001').setField('title', 3);

  // A collection outside the file: the item type given names it, as before types were generated.
  const other = await client.items.query<{ label: string }>('NotGenerated').eq('label', 'x').find();
  const label: string | undefined = other.items[0]?.label;
  void label;
}

export async function everyFieldType(): Promise<void> {
  const found = await client.items.get('Everything', 'one');
  if (!found) return;
  const item: Everything = found;
  const text: string | undefined = item.text;
  const number: number | undefined = item.number;
  const date: string | undefined = item.date;
  const dateTime: Date | undefined = item.dateTime;
  const flag: boolean | undefined = item.flag;
  const tags: string[] | undefined = item.tags;
  const anything: unknown = item.anything;
  const city: string | undefined = item.address?.city;
  const gallerySource: string | undefined = item.gallery?.[0]?.src;
  const nested: number | undefined = item.details?.pages;
  const scores: number[] | undefined = item.scores;
  // A reference is the referenced item's ID, or the item itself when included.
  const director = item.favourite;
  const directorTitle = typeof director === 'object' ? director.title : director;
  const many = item.related?.map((movie) => (typeof movie === 'string' ? movie : movie.year));
  // A field found in items but not declared (`--sample`).
  const undeclared: string | undefined = item.nickname;
  void [text, number, date, dateTime, flag, tags, anything, city, gallerySource, nested, scores, directorTitle, many];
  void undeclared;

  client.items.query('Everything').eq('flag', true).ge('dateTime', new Date()).hasSome('tags', 'a');
  // @ts-expect-error a BOOLEAN field holds booleans
  client.items.query('Everything').eq('flag', 'yes');
  // @ts-expect-error a NUMBER field holds numbers
  client.items.query('Everything').lt('number', 'many');
  // @ts-expect-error a DATETIME field holds dates
  client.items.query('Everything').ge('dateTime', 5);
  // @ts-expect-error not a field of Everything
  client.items.query('Everything').isEmpty('nothing');
  // @ts-expect-error text operators take TEXT fields, not NUMBER ones
  client.items.query('Everything').contains('number', '4');
  // @ts-expect-error text operators take TEXT fields, not BOOLEAN ones
  client.items.query('Everything').startsWith('flag', 't');
  // @ts-expect-error a NUMBER field is incremented, not a TEXT one
  client.items.patch('Everything', 'one').incrementField('text', 1);
  // @ts-expect-error a sum is of a NUMBER field
  client.items.aggregate('Everything').sum('text');
  // @ts-expect-error an average is of a NUMBER field
  client.items.aggregate('Everything').avg('dateTime');
  client.items.query('Everything').contains('text', 'x').startsWith('anything', 'x');
  client.items.patch('Everything', 'one').incrementField('number', 1);
  client.items.aggregate('Everything').sum('number').avg('number');

  // Counts, distinct values and references: the collection ID and the field are checked too.
  const total: number = await client.items.count('Everything');
  const numbers: (number | undefined)[] = (await client.items.distinct('Everything', 'number')).items;
  const referenced = await client.items.queryReferenced('Everything', 'one', 'related');
  const referencedYear: number | undefined = referenced.items[0]?.year;
  await client.items.insertReference('Everything', 'related', 'one', ['movie-001']);
  await client.items.removeReference('Everything', 'favourite', 'one', 'movie-001');
  void [total, numbers, referencedYear];
  // @ts-expect-error not a collection of the site
  await client.items.count('Moviez');
  // @ts-expect-error not a field of Everything
  await client.items.distinct('Everything', 'nothing');
  // @ts-expect-error not a collection of the site
  await client.items.queryReferenced('Moviez', 'one', 'related');
  // @ts-expect-error not a field of Everything
  await client.items.queryReferenced('Everything', 'one', 'nothing');
  // @ts-expect-error the referenced items are Movies: no such field
  referenced.items[0]?.nothing;
  // @ts-expect-error not a collection of the site
  await client.items.insertReference('Moviez', 'related', 'one', 'movie-001');
  // @ts-expect-error not a field of Everything
  await client.items.removeReference('Everything', 'nothing', 'one', 'movie-001');
  await client.items.bulkRemove('Everything', ['one']);
  // @ts-expect-error not a collection of the site
  await client.items.bulkRemove('Moviez', ['one']);
  // A collection outside the file, named by its item type.
  await client.items.count<{ label: string }>('NotGenerated');
}
