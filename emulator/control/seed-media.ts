/**
 * The media bytes that come with a seed file: `sitekit-sdk pull --media` writes them beside it, in
 * `<seed file>.media/<file ID>` (the ID URI-encoded). On a first start from that seed, each file
 * the seed describes gets its bytes from there, so the emulator serves it as the site did.
 */
import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmulatorContext } from '../service.js';
import { bytesPath } from '../services/media/file-store.js';

/** Copies the bytes of `<seedPath>.media/` for the media files the store holds; resolves with how many. */
export async function copySeedMedia(context: EmulatorContext, seedPath: string): Promise<number> {
  const folder = `${seedPath}.media`;
  const names = await readdir(folder).catch(() => [] as string[]);
  if (names.length === 0) return 0;
  const stored = new Set(
    context.store.all<{ id: string }>('SELECT id FROM media_files').map((row) => encodeURIComponent(row.id)),
  );
  let copied = 0;
  for (const name of names) {
    // Only files the seed describes: a stray file in the folder has no descriptor to serve it.
    if (!stored.has(name)) continue;
    await copyFile(join(folder, name), bytesPath(context, decodeURIComponent(name)));
    copied++;
  }
  return copied;
}
