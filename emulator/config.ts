/** The emulator's settings (`GET/PUT /_emulator/config`), kept in the store so they survive restarts. */
import { validationError, type FieldViolation } from './errors.js';
import type { Migration, Store } from './store/store.js';

/** One setting a service module declares. */
export interface ConfigSetting {
  /** Its value until someone changes it; its type is the setting's type. */
  default: string | number | boolean | string[];
  /** What it does, shown by `GET /_emulator/config`'s `descriptions`. */
  description: string;
  /** Extra check beyond the type; returns the problem, or `undefined` when the value is fine. */
  check?(value: unknown): string | undefined;
}

/** The settings: typed reads and validated updates. */
export interface ConfigStore {
  /** Every setting's current value. */
  values(): Record<string, unknown>;
  /** One setting's current value. */
  get<Value>(key: string): Value;
  /** Changes some settings; unknown keys and wrong types are a validation error and change nothing. */
  update(changes: Record<string, unknown>): Record<string, unknown>;
  /** Every setting back to its default. */
  clear(): void;
  /** Each setting's description. */
  descriptions(): Record<string, string>;
}

/** The settings table. */
export const configMigrations: Migration[] = [
  { id: 'core-001-config', sql: 'CREATE TABLE config (key TEXT PRIMARY KEY, value TEXT NOT NULL)' },
];

const typeOf = (value: unknown): string =>
  Array.isArray(value) ? (value.every((entry) => typeof entry == 'string') ? 'string[]' : 'array') : typeof value;

/** Builds the settings store over the declared settings. */
export function createConfigStore(store: Store, settings: Record<string, ConfigSetting>): ConfigStore {
  // Read on every request (CORS origins, webhook URLs, limits): kept in memory, forgotten on any
  // change to the table (Store.onChange). Values are frozen: they are shared.
  const cache = new Map<string, unknown>();
  store.onChange('config', () => cache.clear());
  const read = (key: string): unknown => {
    if (cache.has(key)) return cache.get(key);
    const row = store.get<{ value: string }>('SELECT value FROM config WHERE key = ?', [key]);
    const value: unknown = row ? JSON.parse(row.value) : settings[key]?.default;
    if (typeof value == 'object' && value !== null) Object.freeze(value);
    cache.set(key, value);
    return value;
  };
  return {
    values: () => Object.fromEntries(Object.keys(settings).map((key) => [key, read(key)])),
    get: <Value>(key: string) => {
      if (!(key in settings)) throw new Error(`Unknown setting ${key}`);
      return read(key) as Value;
    },
    update(changes) {
      const violations: FieldViolation[] = [];
      for (const [key, value] of Object.entries(changes)) {
        const setting = settings[key];
        if (!setting) {
          violations.push({
            field: key,
            description: 'is not a setting of the emulator',
            violatedRule: 'FIELD_NOT_ALLOWED',
          });
          continue;
        }
        const expected = typeOf(setting.default);
        const problem = typeOf(value) != expected ? `must be a ${expected}` : setting.check?.(value);
        if (problem) violations.push({ field: key, description: problem, violatedRule: 'VALIDATION' });
      }
      if (violations.length) throw validationError(violations);
      store.transaction(() => {
        for (const [key, value] of Object.entries(changes)) {
          store.run(
            'INSERT INTO config (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
            [key, JSON.stringify(value)],
          );
        }
      });
      return this.values();
    },
    clear: () => void store.run('DELETE FROM config'),
    descriptions: () =>
      Object.fromEntries(Object.entries(settings).map(([key, setting]) => [key, setting.description])),
  };
}

/** A check for settings that must be a whole number of at least `minimum`. */
export const atLeast =
  (minimum: number) =>
  (value: unknown): string | undefined =>
    Number.isInteger(value) && (value as number) >= minimum
      ? undefined
      : `must be a whole number of at least ${minimum}`;
