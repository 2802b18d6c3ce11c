/**
 * Serves the console (a built React app in `dist/console/`) at `/`, with the index.html fallback
 * for its client-side routes; a small page naming the build command when it is not built.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyReply } from 'fastify';
import { FAVICON_PATH, ICON_LINK } from './icon.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Path prefixes that belong to APIs: never answered with the console's index.html. */
export const API_PREFIXES = [
  '/_emulator/',
  '/_api/',
  '/oauth2/',
  '/wix-data/',
  '/site-media/',
  '/members/',
  '/graphql',
  '/_pages/',
  '/_uploads/',
  '/_media/',
];

/** Whether a path (without its query) is an API's: under one of {@link API_PREFIXES}, or the prefix itself without its slash (`/_media`). */
export const isApiPath = (path: string): boolean =>
  API_PREFIXES.some((prefix) => path.startsWith(prefix) || path == prefix.replace(/\/$/, ''));

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sitekit emulator</title>${ICON_LINK}</head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>sitekit emulator</h1>
<p>The emulator is running. The console is not built in this copy: run <code>npm run build:console</code>, then reload.</p>
<p>Connection details: <a href="/_emulator/info">/_emulator/info</a>. Health: <a href="/_emulator/health">/_emulator/health</a>.</p>
</body></html>
`;

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() ?? false;

/**
 * The console's pages write to the control API as the emulator's own origin (reset, import, sign in
 * as): framed by a page of another site, a click there could be a click on them (clickjacking).
 */
const CONSOLE_FRAMING = { 'content-security-policy': "frame-ancestors 'self'", 'x-frame-options': 'SAMEORIGIN' };

/** Answers a GET outside the API paths from the console directory. */
export async function serveConsole(consoleDir: string, urlPath: string, reply: FastifyReply): Promise<FastifyReply> {
  reply.headers(CONSOLE_FRAMING);
  const index = join(consoleDir, 'index.html');
  const consoleBuilt = await isFile(index);
  // Our pages name an inline icon; a browser that asks anyway gets "no content", not an error
  // (unless the console build ships an icon file, served below).
  if (urlPath.split('?')[0] == FAVICON_PATH && !(consoleBuilt && (await isFile(join(consoleDir, FAVICON_PATH))))) {
    return reply.code(204).header('cache-control', 'public, max-age=86400').send();
  }
  if (!consoleBuilt) return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath.split('?')[0]!);
  } catch {
    relative = '/';
  }
  const candidate = normalize(join(consoleDir, relative));
  // A path that climbs out of the console directory gets the index page, never the file.
  const inside =
    candidate == consoleDir || candidate.startsWith(consoleDir.endsWith(sep) ? consoleDir : consoleDir + sep);
  if (inside && (await isFile(candidate))) {
    const type = CONTENT_TYPES[extname(candidate).toLowerCase()] ?? 'application/octet-stream';
    // Vite names built assets by content hash: they never change, so they can be cached for long.
    const immutable = relative.startsWith('/assets/');
    return reply
      .type(type)
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .send(await readFile(candidate));
  }
  // A file-like path that does not exist is a 404; anything else is a client route of the app.
  if (extname(relative)) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send(await readFile(index));
}
