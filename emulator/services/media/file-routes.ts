/**
 * The media files' own routes: public files at `/_media/files/<id>`, scaled previews of images
 * (`/_media/files/<id>/v1/fill|fit/...`), and any file (or a ZIP of several) through a signed
 * `/_media/download/<ids>` URL. Every user file goes out under ./file-headers.ts's headers.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { applicationError, invalidField } from '../../errors.js';
import type { EmulatorContext, SiteDirectory } from '../../service.js';
import { setUserFileHeaders } from './file-headers.js';
import { bytesPath, fileNotFound, findFile, type FileDescriptor } from './file-store.js';
import { cachedPreview, parsePreviewRequest } from './previews.js';
import { isRedirectTarget } from './redirect-target.js';
import { readDownloadUrl } from './signed-urls.js';
import { zip } from './zip.js';

/** Streams a file's bytes with its type and disposition, under the headers every user file gets (`file-headers.ts`). */
async function sendBytes(
  reply: FastifyReply,
  context: EmulatorContext,
  file: FileDescriptor,
  disposition: 'ATTACHMENT' | 'INLINE',
  fileName = file.displayName,
): Promise<FastifyReply> {
  const path = bytesPath(context, file.id);
  const size = (await stat(path).catch(() => undefined))?.size;
  if (size === undefined) return reply.code(404).send(fileNotFound(file.id).body);
  return setUserFileHeaders(reply, file.mimeType ?? 'application/octet-stream', disposition, fileName)
    .header('content-length', size)
    .header('cache-control', 'private, max-age=60')
    .send(createReadStream(path));
}

/** Registers the routes that serve the files' bytes. */
export function registerFileRoutes(app: FastifyInstance, sites: SiteDirectory): void {
  app.get('/_media/files/:fileId', async (request, reply) => {
    const context = sites.of(request);
    const file = findFile(context.store, (request.params as { fileId: string }).fileId);
    // Private and trashed files are not public: they need a signed download URL.
    if (!file || file.state != 'OK' || file.private || file.operationStatus != 'READY')
      return reply.code(404).send(fileNotFound((request.params as { fileId: string }).fileId).body);
    return sendBytes(reply, context, file, 'INLINE');
  });

  // A scaled preview, asked for as the platform's image URLs ask (`previews.ts`); the original
  // when the emulator cannot scale the image or it is no larger than the box.
  app.get('/_media/files/:fileId/v1/:mode/:parameters/:fileName', async (request, reply) => {
    const context = sites.of(request);
    const { fileId, mode, parameters } = request.params as { fileId: string; mode: string; parameters: string };
    const file = findFile(context.store, fileId);
    if (!file || file.state != 'OK' || file.private || file.operationStatus != 'READY')
      return reply.code(404).send(fileNotFound(fileId).body);
    const preview = parsePreviewRequest(mode, parameters);
    if (!preview)
      return reply
        .code(400)
        .send(
          invalidField(
            'size',
            'must be /v1/fill/ or /v1/fit/ then w_<width>,h_<height> (1 to 2048 pixels each)',
            'FORMAT',
          ).body,
        );
    const scaled =
      file.mediaType == 'IMAGE'
        ? await cachedPreview(file.hash, () => readFile(bytesPath(context, file.id)), preview)
        : null;
    if (!scaled) return sendBytes(reply, context, file, 'INLINE');
    return setUserFileHeaders(reply, 'image/png', 'INLINE', file.displayName)
      .header('content-length', scaled.length)
      .header('cache-control', 'private, max-age=60')
      .send(scaled);
  });

  app.get('/_media/download/:fileIds', async (request, reply) => {
    const context = sites.of(request);
    const fileIds = (request.params as { fileIds: string }).fileIds;
    const grant = readDownloadUrl(context, fileIds, request.query as Record<string, unknown>);
    if (!grant)
      return reply
        .code(403)
        .send(
          applicationError(403, 'INVALID_SIGNATURE', 'The download URL is not valid (wrong or missing signature)').body,
        );
    if (grant.expires * 1000 <= context.clock.now()) {
      // Checked again here: a URL signed before the check existed may carry any target.
      if (grant.expiredRedirect && isRedirectTarget(grant.expiredRedirect))
        return reply.code(302).header('location', grant.expiredRedirect).send();
      return reply.code(403).send(applicationError(403, 'URL_EXPIRED', 'The download URL has expired').body);
    }
    const files = fileIds.split(',').map((fileId) => findFile(context.store, fileId));
    if (files.some((file) => !file || file.state != 'OK')) return reply.code(404).send(fileNotFound(fileIds).body);
    if (files.length == 1) return sendBytes(reply, context, files[0]!, grant.disposition, grant.fileName);
    const names = new Set<string>();
    const entries = await Promise.all(
      files.map(async (file) => {
        let name = file!.displayName;
        for (let copy = 1; names.has(name); copy++) name = `${copy}-${file!.displayName}`;
        names.add(name);
        return { name, bytes: await readFile(bytesPath(context, file!.id)) };
      }),
    );
    return setUserFileHeaders(reply, 'application/zip', 'ATTACHMENT', grant.fileName ?? 'files.zip').send(zip(entries));
  });
}
