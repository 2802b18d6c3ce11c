/**
 * The demo data seeded on first start (and by `POST /_emulator/reset`): a `Movies` collection of
 * 300 items with varied field types, readable by anyone. Deterministic, so tests and docs can
 * rely on its contents.
 */
import type { EmulatorContext } from '../../service.js';
import { DEFAULT_PERMISSIONS, SYSTEM_FIELDS, saveCollection, type Collection } from './collection-store.js';
import { writeItem, type ItemData } from './items/item-store.js';

/** How many movies the demo collection holds. */
const DEMO_MOVIE_COUNT = 300;

const ADJECTIVES = [
  'Silent',
  'Crimson',
  'Last',
  'Hidden',
  'Broken',
  'Golden',
  'Midnight',
  'Lost',
  'Electric',
  'Wild',
  'Frozen',
  'Secret',
  'Distant',
];
const NOUNS = [
  'River',
  'Empire',
  'Garden',
  'Signal',
  'Harbor',
  'Machine',
  'Summer',
  'Kingdom',
  'Echo',
  'Voyage',
  'Mirror',
  'Orchard',
  'Storm',
  'Letter',
  'Station',
  'Horizon',
  'Island',
];
const GENRES = ['Drama', 'Comedy', 'Thriller', 'Sci-Fi', 'Romance', 'Horror', 'Documentary', 'Animation'];
const DIRECTORS = [
  'Ada Park',
  'Bruno Silva',
  'Chen Wei',
  'Dana Okafor',
  'Elif Kaya',
  'Farid Haddad',
  'Greta Lind',
  'Hiro Sato',
  'Ines Duarte',
  'Jonas Berg',
];
const LANGUAGES = ['en', 'fr', 'es', 'ja', 'de', 'pt'];

/** The Movies collection definition. */
function moviesCollection(now: string): Collection {
  return {
    id: 'Movies',
    collectionType: 'NATIVE',
    displayName: 'Movies',
    displayField: 'title',
    maxPageSize: 1000,
    pagingModes: ['OFFSET', 'CURSOR'],
    plugins: [],
    indexes: [],
    fields: [
      ...SYSTEM_FIELDS,
      { key: 'title', displayName: 'Title', type: 'TEXT' },
      { key: 'year', displayName: 'Year', type: 'NUMBER' },
      { key: 'rating', displayName: 'Rating', type: 'NUMBER' },
      { key: 'genres', displayName: 'Genres', type: 'ARRAY_STRING' },
      { key: 'releaseDate', displayName: 'Release date', type: 'DATETIME' },
      { key: 'inColor', displayName: 'In color', type: 'BOOLEAN' },
      { key: 'director', displayName: 'Director', type: 'TEXT' },
      { key: 'budget', displayName: 'Budget (USD)', type: 'NUMBER' },
      { key: 'tagline', displayName: 'Tagline', type: 'TEXT' },
      { key: 'poster', displayName: 'Poster', type: 'IMAGE' },
      { key: 'details', displayName: 'Details', type: 'OBJECT' },
    ],
    permissions: { ...DEFAULT_PERMISSIONS, read: 'ANYONE' },
    revision: '1',
    createdDate: now,
    updatedDate: now,
  };
}

/** The `index`-th demo movie: every value derived from the index, with gaps (missing budget, null tagline) on purpose. */
function demoMovie(index: number, ownerId: string): ItemData {
  const year = 1950 + ((index * 31) % 74);
  const month = (index * 5) % 12;
  const day = 1 + ((index * 11) % 28);
  const created = new Date(Date.UTC(2024, 0, 1) + index * 3_600_000).toISOString();
  const movie: ItemData = {
    _id: `movie-${String(index + 1).padStart(3, '0')}`,
    _createdDate: { $date: created },
    _updatedDate: { $date: created },
    _owner: ownerId,
    title: `The ${ADJECTIVES[index % ADJECTIVES.length]} ${NOUNS[(index * 7) % NOUNS.length]}${index >= ADJECTIVES.length * NOUNS.length ? ' II' : ''}`,
    year,
    rating: ((index * 53) % 91) / 10,
    genres: [GENRES[index % GENRES.length]!, ...(index % 3 == 0 ? [GENRES[(index + 3) % GENRES.length]!] : [])],
    releaseDate: { $date: new Date(Date.UTC(year, month, day)).toISOString() },
    inColor: year >= 1967 || index % 4 == 0,
    director: DIRECTORS[(index * 3) % DIRECTORS.length]!,
    poster: `wix:image://v1/demo-poster-${index + 1}.jpg/poster.jpg#originWidth=600&originHeight=900`,
    details: { runtimeMinutes: 80 + ((index * 13) % 100), language: LANGUAGES[index % LANGUAGES.length] },
  };
  // Some movies lack a budget, some have a null tagline: the demo exercises isEmpty and missing fields.
  if (index % 5 != 0) movie.budget = 1_000_000 * (1 + ((index * 17) % 150));
  movie.tagline =
    index % 7 == 0
      ? null
      : `A story of ${NOUNS[(index * 3) % NOUNS.length]!.toLowerCase()} and ${NOUNS[(index * 5 + 1) % NOUNS.length]!.toLowerCase()}.`;
  return movie;
}

/** Writes the Movies collection and its items. */
export function seedMovies(context: EmulatorContext): void {
  saveCollection(context.store, moviesCollection(new Date(Date.UTC(2024, 0, 1)).toISOString()));
  for (let index = 0; index < DEMO_MOVIE_COUNT; index++)
    writeItem(context.store, 'Movies', demoMovie(index, context.site.ownerId));
}
