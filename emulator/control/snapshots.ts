/**
 * Named snapshots of one site (`/_emulator/snapshots`): the site's whole state saved under a name
 * and put back on demand, as often as wanted (a test suite restores one in `beforeEach`). Each site's
 * context has its own shelf, kept in memory and, when the site has a data folder, on disk under
 * `<data dir>/snapshots/` (`snapshot-files.ts`), so they survive a restart. What a snapshot holds is
 * `snapshot-content.ts`: the data (every table, media bytes), not the test bench's controls (the
 * clock, fault rules and request log stay as they are; the emulator README says why).
 */
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { applicationError, invalidField } from '../errors.js';
import type { EmulatorContext, ServiceModule, SiteDirectory } from '../service.js';
import { controlRoute } from './register.js';
import { contentSize, restoreContent, takeContent, type SnapshotContent } from './snapshot-content.js';
import {
  readContent,
  readSummaries,
  removeSnapshotFiles,
  writeSnapshot,
  type SnapshotSummary,
} from './snapshot-files.js';

export type { SnapshotSummary };

/** The most snapshots one site keeps. */
export const MAX_SNAPSHOTS = 50;
/** The most bytes (rows as JSON text, media bytes) one site's snapshots hold together: they are kept in memory. */
export const MAX_SNAPSHOT_BYTES = 512 * 1024 * 1024;

/**
 * A snapshot's name: it is a segment of the URL (`/_emulator/snapshots/{name}/restore`) and the name
 * of its folder on disk, so no `/`, `\`, `.` or `..`, nothing a shell or a file system reads specially.
 * The control schema's `SnapshotName` declares the same rule, so the routes refuse a bad name first.
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Whether `name` may name a snapshot. */
export const isSnapshotName = (name: string): boolean => NAME.test(name);

/** A snapshot on the shelf: its summary, and its content once taken or read from disk. */
interface ShelvedSnapshot extends SnapshotSummary {
  content?: SnapshotContent;
}

/** One site's snapshots. */
export interface SiteSnapshots {
  /** Saves the site's state as `name`, replacing a snapshot of that name. */
  save(name: string): SnapshotSummary & { replaced: boolean };
  /** Every snapshot, oldest first. */
  list(): SnapshotSummary[];
  /** Puts the site's state back as `name` holds it; a 404 when there is none. */
  restore(name: string): SnapshotSummary;
  /** Forgets `name` (memory and disk); a 404 when there is none. */
  remove(name: string): void;
}

/** 404 of a name no snapshot has, in the control API's error shape. */
const notFound = (name: string) =>
  applicationError(404, 'SNAPSHOT_NOT_FOUND', `No snapshot named ${name}: GET /_emulator/snapshots lists them`, {
    name,
  });

/** The name checked where it enters, whoever calls (a route, a test bench, a tool holding the context). */
function checkedName(name: unknown): string {
  if (typeof name != 'string' || !isSnapshotName(name))
    throw invalidField(
      'name',
      'must be 1 to 64 letters, digits, dots, dashes and underscores, starting with a letter or a digit',
      'VALIDATION',
    );
  return name;
}

/** Oldest first; the name breaks a tie (two saves in one millisecond). */
const byDate = (a: SnapshotSummary, b: SnapshotSummary) =>
  a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name);

const summaryOf = ({ name, createdAt, sizeBytes }: SnapshotSummary): SnapshotSummary => ({
  name,
  createdAt,
  sizeBytes,
});

/** The shelf of one site's context. */
function createSiteSnapshots(context: EmulatorContext, modules: readonly ServiceModule[]): SiteSnapshots {
  const root = context.dataDir === null ? null : join(context.dataDir, 'snapshots');
  const shelf = new Map<string, ShelvedSnapshot>(
    (root ? readSummaries(root, isSnapshotName) : []).map((summary) => [summary.name, summary]),
  );

  /** The snapshot named `name` (exactly), or a 404. */
  const find = (name: string): ShelvedSnapshot => {
    const snapshot = shelf.get(checkedName(name));
    if (!snapshot) throw notFound(name);
    return snapshot;
  };

  /** Its content, read from disk the first time when it was saved before a restart. */
  function contentOf(snapshot: ShelvedSnapshot): SnapshotContent {
    if (!snapshot.content) {
      try {
        snapshot.content = readContent(root!, snapshot.name);
      } catch (error) {
        throw applicationError(
          409,
          'SNAPSHOT_UNUSABLE',
          `Snapshot ${snapshot.name} cannot be read from disk (${(error as Error).message}): save it again`,
          { name: snapshot.name },
        );
      }
    }
    return snapshot.content;
  }

  return {
    save(givenName) {
      const name = checkedName(givenName);
      // Names differing only in case would be one folder on a case-insensitive disk (macOS, Windows).
      const clash = [...shelf.keys()].find((other) => other != name && other.toLowerCase() == name.toLowerCase());
      if (clash !== undefined)
        throw applicationError(409, 'SNAPSHOT_NAME_TAKEN', `Snapshot ${clash} differs from ${name} only in case`, {
          name,
        });
      const replaced = shelf.has(name);
      if (!replaced && shelf.size >= MAX_SNAPSHOTS)
        throw applicationError(
          409,
          'TOO_MANY_SNAPSHOTS',
          `A site keeps at most ${MAX_SNAPSHOTS} snapshots: remove one first`,
          { limit: MAX_SNAPSHOTS },
        );
      const content = takeContent(context);
      const sizeBytes = contentSize(content);
      const others = [...shelf.values()].reduce((sum, other) => sum + (other.name == name ? 0 : other.sizeBytes), 0);
      if (others + sizeBytes > MAX_SNAPSHOT_BYTES)
        throw applicationError(
          413,
          'SNAPSHOT_TOO_LARGE',
          `The site's snapshots would hold ${others + sizeBytes} bytes, more than ${MAX_SNAPSHOT_BYTES}: remove some first`,
          { sizeBytes, limit: MAX_SNAPSHOT_BYTES },
        );
      const snapshot: ShelvedSnapshot = { name, createdAt: context.clock.iso(), sizeBytes, content };
      if (root) writeSnapshot(root, summaryOf(snapshot), content);
      shelf.set(name, snapshot);
      return { ...summaryOf(snapshot), replaced };
    },
    list: () => [...shelf.values()].map(summaryOf).sort(byDate),
    restore(name) {
      const snapshot = find(name);
      restoreContent(context, modules, snapshot.name, contentOf(snapshot));
      return summaryOf(snapshot);
    },
    remove(name) {
      const snapshot = find(name);
      if (root) removeSnapshotFiles(root, snapshot.name);
      shelf.delete(snapshot.name);
    },
  };
}

const shelves = new WeakMap<EmulatorContext, SiteSnapshots>();

/**
 * The snapshots of the site whose context this is (made on first use, reading those on disk). Every
 * site has its own: pass the context of the site a request is for.
 */
export function siteSnapshots(context: EmulatorContext, modules: readonly ServiceModule[]): SiteSnapshots {
  let snapshots = shelves.get(context);
  if (!snapshots) {
    snapshots = createSiteSnapshots(context, modules);
    shelves.set(context, snapshots);
  }
  return snapshots;
}

/** Serves `/_emulator/snapshots`, each request for its site's snapshots. */
export function registerSnapshotRoutes(
  app: FastifyInstance,
  sites: SiteDirectory,
  modules: readonly ServiceModule[],
): void {
  const snapshots = (request: FastifyRequest) => siteSnapshots(sites.of(request), modules);
  controlRoute(app, 'listSnapshots', ({ request }) => ({ snapshots: snapshots(request).list() }));
  controlRoute(app, 'saveSnapshot', ({ body, request }) => snapshots(request).save(body.name));
  controlRoute(app, 'restoreSnapshot', ({ params, request }) => snapshots(request).restore(params.name));
  controlRoute(app, 'removeSnapshot', ({ params, request }) => {
    snapshots(request).remove(params.name);
    return {};
  });
}
