/** The generator of `sitekit-sdk types` (also the console's): names, keys, the one-collection form, and --check's words. */
import { describe, expect, it } from 'vitest';
import type { DataCollection } from '../../src/index.js';
import { collectionInterface, interfaceName, siteTypesFile } from '../../cli/site-types.js';
import { describeChanges } from '../../cli/types-changes.js';

describe('interface names', () => {
  it('are the collection ID in PascalCase, its last word singular', () => {
    expect(interfaceName('Movies')).toBe('Movie');
    expect(interfaceName('Categories')).toBe('Category');
    expect(interfaceName('Cities')).toBe('City');
    expect(interfaceName('Properties')).toBe('Property');
    expect(interfaceName('Activities')).toBe('Activity');
    expect(interfaceName('Families')).toBe('Family');
    expect(interfaceName('Ties')).toBe('Tie');
    expect(interfaceName('NeckTies')).toBe('NeckTie');
    expect(interfaceName('pies')).toBe('Pie');
    expect(interfaceName('UserMovies')).toBe('UserMovie');
    expect(interfaceName('Addresses')).toBe('Address');
    expect(interfaceName('Boxes')).toBe('Box');
    expect(interfaceName('News')).toBe('News');
    expect(interfaceName('Status')).toBe('Status');
    expect(interfaceName('Members/Badges')).toBe('MembersBadge');
    expect(interfaceName('blog-posts')).toBe('BlogPost');
    expect(interfaceName('2024 results')).toBe('Collection2024Result');
  });

  it('never collide, with each other or with the names the file uses', () => {
    const file = siteTypesFile([{ _id: 'Movie' }, { _id: 'Movies' }, { _id: 'Items' }]);
    expect(file).toContain('export interface Movie {');
    expect(file).toContain('export interface Movie2 {');
    expect(file).toContain('export interface Item2 {');
    expect(file).toContain('    Items: Item2;');
  });
});

describe('the file', () => {
  it('quotes keys that are not identifiers, and is a module even for a site without collections', () => {
    const file = siteTypesFile([{ _id: 'Members/Badges', fields: [{ key: 'a-b', type: 'TEXT' }] }]);
    expect(file).toContain('  "a-b"?: string;');
    expect(file).toContain('    "Members/Badges": MembersBadge;');
    expect(siteTypesFile([])).toContain('export {};');
  });

  it('types sampled fields by their values, not their number (a file checked with --check stays current)', () => {
    const collections = [{ _id: 'Movies', fields: [{ key: 'title', type: 'TEXT' }] }];
    const fewer = siteTypesFile(collections, { sampled: { Movies: { nickname: ['a'] } } });
    const more = siteTypesFile(collections, { sampled: { Movies: { nickname: ['a', 'b', 'c'] } } });
    expect(fewer).toContain('  /** Not declared: found in sampled items. */\n  nickname?: string;\n');
    expect(more).toBe(fewer);
  });

  it('does not depend on the order the API lists collections in', () => {
    const a = { _id: 'A', fields: [{ key: 'x', type: 'NUMBER' }] };
    const b = { _id: 'B', fields: [{ key: 'y', type: 'TEXT' }] };
    expect(siteTypesFile([a, b])).toBe(siteTypesFile([b, a]));
  });
});

describe('one collection, as the console shows it', () => {
  it('brings the helper types and the import it uses, and no registration', () => {
    const source = collectionInterface({
      _id: 'Places',
      fields: [
        { key: 'address', type: 'ADDRESS' },
        { key: 'owner', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'People' } } },
      ],
    });
    expect(source).toMatch(/^import type \{ Item \} from 'sitekit-sdk';/);
    expect(source).toContain('export interface Place {');
    expect(source).toContain('  owner?: string | Item;');
    expect(source).toContain('export interface Address {');
    expect(source).not.toContain('SiteCollections');
  });
});

describe('--check names what changed', () => {
  const before = siteTypesFile([
    {
      _id: 'Movies',
      fields: [
        { key: 'title', type: 'TEXT' },
        { key: 'year', type: 'NUMBER' },
      ],
    },
    { _id: 'Old' },
  ]);
  it('collections and fields added, removed or retyped', () => {
    const after = siteTypesFile([
      {
        _id: 'Movies',
        fields: [
          { key: 'year', type: 'TEXT' },
          { key: 'cast', type: 'ARRAY_STRING' },
        ],
      },
      { _id: 'New' },
    ]);
    expect(describeChanges(before, after)).toEqual([
      'collection New added',
      'collection Old removed',
      'Movies: field year changed from number to string',
      'Movies: field cast added (string[])',
      'Movies: field title removed',
    ]);
  });
  it('keys and collection IDs that are not identifiers by their names, unquoted', () => {
    const badges = (fields: DataCollection['fields']) => siteTypesFile([{ _id: 'Members/Badges', fields }]);
    const one = badges([{ key: 'a-b', type: 'TEXT' }]);
    const other = badges([
      { key: 'a-b', type: 'NUMBER' },
      { key: 'c d', type: 'BOOLEAN' },
    ]);
    expect(describeChanges(one, other)).toEqual([
      'Members/Badges: field a-b changed from string to number',
      'Members/Badges: field c d added (boolean)',
    ]);
    expect(describeChanges(other, one)).toEqual([
      'Members/Badges: field a-b changed from number to string',
      'Members/Badges: field c d removed',
    ]);
  });
  it("a nested object's declaration on one line, its comments included", () => {
    const shelf = (type: 'NUMBER' | 'TEXT') =>
      siteTypesFile([
        {
          _id: 'Books',
          fields: [{ key: 'details', type: 'OBJECT', typeMetadata: { object: { fields: [{ key: 'pages', type }] } } }],
        },
      ]);
    expect(describeChanges(shelf('NUMBER'), shelf('TEXT'))).toEqual([
      'Books: field details changed from { /** NUMBER. */ pages?: number; } to { /** TEXT. */ pages?: string; }',
    ]);
  });
  it('from a site without collections (no registration in the file) and from a file missing an interface', () => {
    const books = siteTypesFile([{ _id: 'Books', fields: [{ key: 'title', type: 'TEXT' }] }]);
    expect(describeChanges(siteTypesFile([]), books)).toEqual(['collection Books added']);
    expect(describeChanges(books, siteTypesFile([]))).toEqual(['collection Books removed']);
    const withoutInterface = books.replace('export interface Book {', 'export interface Volume {');
    expect(describeChanges(withoutInterface, books)).toEqual([
      'Books: field _id added (string)',
      'Books: field _createdDate added (Date)',
      'Books: field _updatedDate added (Date)',
      'Books: field _owner added (string)',
      'Books: field title added (string)',
    ]);
  });
  it('reads a file whose interface was renamed by hand, even with a $ in its name', () => {
    const books = (fields: DataCollection['fields']) => siteTypesFile([{ _id: 'Books', fields }]);
    const renamed = books([{ key: 'title', type: 'TEXT' }])
      .replace('export interface Book {', 'export interface Book$ {')
      .replace('Books: Book;', 'Books: Book$;');
    const next = books([
      { key: 'title', type: 'TEXT' },
      { key: 'pages', type: 'NUMBER' },
    ]);
    expect(describeChanges(renamed, next)).toEqual(['Books: field pages added (number)']);
  });
  it('nothing when the files are the same; a plain word when only comments differ', () => {
    expect(describeChanges(before, before)).toEqual([]);
    expect(describeChanges(before, before.replace('Do not edit', 'Please do not edit'))).toEqual([
      'the file differs from what the generator writes now (comments or names)',
    ]);
  });
});
