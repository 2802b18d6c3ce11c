/**
 * Uploads: a ticket per generated upload URL (single use, stored hashed), the simple upload
 * (`PUT /_uploads/files/<ticket>?filename=...` with the bytes) and the resumable one (TUS 1.0 by
 * @tus/server at `/_uploads/tus`, the ticket in the `token` metadata, then
 * `PUT /_uploads/tus/<ticket>` to finalise). Bodies over the `maxUploadBytes` setting are refused
 * with 413 and leave nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { Server as TusServer } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applicationError, EmulatorError } from '../../errors.js';
import type { Caller, EmulatorContext, SiteDirectory } from '../../service.js';
import { sitePath } from '../../sites/site-path.js';
import type { Migration } from '../../store/store.js';
import { hashSecret } from '../accounts/identity/secrets.js';
import { describeBytes, type FileRequest } from './descriptors.js';
import { mediaDirectories, saveFile, wireFile, uploaderOf } from './file-store.js';
import { fileEvent } from './media-events.js';

/** How long an upload URL works. */
const TICKET_SECONDS = 60 * 60;

export const uploadMigrations: Migration[] = [
  {
    id: 'media-002-uploads',
    sql: `CREATE TABLE media_uploads (
      ticket_hash TEXT PRIMARY KEY,
      protocol TEXT NOT NULL,
      request TEXT NOT NULL,
      uploader TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT,
      tus_upload_id TEXT
    )`,
  },
];

interface Ticket {
  ticketHash: string;
  protocol: 'PUT' | 'TUS';
  request: FileRequest;
  uploader: string;
  tusUploadId: string | null;
}

/** A ticket for one upload; returns the ticket (the secret part of the upload URL or the upload token). */
export function createTicket(
  context: EmulatorContext,
  caller: Caller,
  protocol: Ticket['protocol'],
  request: FileRequest,
): string {
  const ticket = `upload.${randomBytes(24).toString('base64url')}`;
  context.store.run(
    'INSERT INTO media_uploads (ticket_hash, protocol, request, uploader, expires_at) VALUES (?, ?, ?, ?, ?)',
    [
      hashSecret(ticket),
      protocol,
      JSON.stringify(request),
      uploaderOf(caller),
      new Date(context.clock.now() + TICKET_SECONDS * 1000).toISOString(),
    ],
  );
  return ticket;
}

/** The usable ticket, or the production refusal. */
function requireTicket(context: EmulatorContext, ticket: unknown, protocol: Ticket['protocol']): Ticket {
  const row =
    typeof ticket == 'string'
      ? context.store.get<{
          ticket_hash: string;
          protocol: Ticket['protocol'];
          request: string;
          uploader: string;
          expires_at: string;
          used_at: string | null;
          tus_upload_id: string | null;
        }>('SELECT * FROM media_uploads WHERE ticket_hash = ?', [hashSecret(ticket)])
      : undefined;
  if (!row || row.protocol != protocol) throw applicationError(404, 'UPLOAD_NOT_FOUND', 'Unknown upload URL');
  if (row.used_at)
    throw applicationError(403, 'UPLOAD_URL_USED', 'This upload URL was already used; upload URLs work once');
  if (Date.parse(row.expires_at) <= context.clock.now())
    throw applicationError(403, 'UPLOAD_URL_EXPIRED', 'This upload URL has expired');
  return {
    ticketHash: row.ticket_hash,
    protocol: row.protocol,
    request: JSON.parse(row.request) as FileRequest,
    uploader: row.uploader,
    tusUploadId: row.tus_upload_id,
  };
}

/**
 * Takes a usable ticket for one upload, atomically: of concurrent uploads to the same URL, one
 * claims it and the others are refused as if it were used (reading the ticket and marking it used
 * only once the bytes are in let every concurrent upload through). {@link releaseTicket} gives it
 * back when the upload fails, so the URL can be tried again.
 */
function claimTicket(context: EmulatorContext, ticket: unknown, protocol: Ticket['protocol']): Ticket {
  const claimed = requireTicket(context, ticket, protocol);
  const { changes } = context.store.run(
    'UPDATE media_uploads SET used_at = ? WHERE ticket_hash = ? AND used_at IS NULL',
    [context.clock.iso(), claimed.ticketHash],
  );
  if (changes != 1)
    throw applicationError(403, 'UPLOAD_URL_USED', 'This upload URL was already used; upload URLs work once');
  return claimed;
}

/** Makes a claimed ticket usable again (its upload failed before storing anything). */
const releaseTicket = (context: EmulatorContext, ticket: Ticket): void =>
  void context.store.run('UPDATE media_uploads SET used_at = NULL WHERE ticket_hash = ?', [ticket.ticketHash]);

/** The largest upload the emulator takes now. */
export const uploadLimit = (context: EmulatorContext): number => context.config.get<number>('maxUploadBytes');

const tooLarge = (limit: number) =>
  applicationError(413, 'PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${limit} bytes`, { limit });

/** Describes and stores finished bytes for a claimed ticket; returns the answer. */
async function finish(context: EmulatorContext, ticket: Ticket, incomingPath: string, fileName: unknown) {
  const request = { ...ticket.request, ...(typeof fileName == 'string' && fileName ? { fileName } : {}) };
  const file = await describeBytes(context, incomingPath, request);
  context.store.transaction(() => saveFile(context.store, file, ticket.uploader));
  context.events.publish([fileEvent(context, 'file_ready', file, ticket.request.externalInfo)]);
  return { file: wireFile(context, file) };
}

/** Counts bytes going through, failing with 413 past `limit`. */
export const limitTo = (limit: number) => {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > limit ? tooLarge(limit) : null, chunk);
    },
  });
};

/**
 * @tus/server and @tus/file-store, loaded on the first resumable upload: loading them took about a
 * third of the emulator's start, for a feature most sessions never use.
 */
async function loadTus() {
  const [{ Server }, { FileStore }] = await Promise.all([import('@tus/server'), import('@tus/file-store')]);
  /**
   * @tus/file-store creates its directory from its constructor with an asynchronous `mkdir` whose
   * callback throws on failure: an emulator closed at once (its temporary directory removed while that
   * `mkdir` runs) crashed the host process with an uncaught ENOENT. `mediaDirectories` has already
   * created the directory synchronously, so this store skips that step and leaves no work pending.
   */
  class PreparedDirectoryFileStore extends FileStore {}
  Object.defineProperty(PreparedDirectoryFileStore.prototype, 'checkOrCreateDirectory', { value: () => undefined });
  return { Server, PreparedDirectoryFileStore };
}

/** Sends an emulator error from a hijacked or streaming handler. */
const sendError = (reply: FastifyReply, error: EmulatorError) => reply.code(error.status).send(error.body);

/** The TUS server of each site, made at its first resumable upload (it loads @tus/server). */
const tusServers = new WeakMap<EmulatorContext, Promise<TusServer>>();

/** The TUS server of a site: its own directory, tickets and upload limit. */
async function createTus(context: EmulatorContext): Promise<TusServer> {
  const { Server, PreparedDirectoryFileStore } = await loadTus();
  return new Server({
    path: '/_uploads/tus',
    datastore: new PreparedDirectoryFileStore({ directory: mediaDirectories(context).tus }),
    maxSize: () => uploadLimit(context),
    respectForwardedHeaders: false,
    // The upload's URL under the site's own base (`/_sites/<id>` but for the default site), so
    // the client's next requests find the site again.
    generateUrl: (_request, { proto, host, path, id }) => `${proto}://${host}${sitePath(context)}${path}/${id}`,
    async onUploadCreate(_request, upload) {
      try {
        requireTicket(context, upload.metadata?.token, 'TUS');
      } catch (error) {
        if (error instanceof EmulatorError) throw { status_code: error.status, body: JSON.stringify(error.body) };
        throw error;
      }
      return {};
    },
    async onUploadFinish(_request, upload) {
      context.store.run('UPDATE media_uploads SET tus_upload_id = ? WHERE ticket_hash = ? AND used_at IS NULL', [
        upload.id,
        hashSecret(String(upload.metadata?.token)),
      ]);
      return {};
    },
  });
}

/** The site's TUS server (made once; a failed load is tried again at the next upload). */
function tusOf(context: EmulatorContext): Promise<TusServer> {
  let server = tusServers.get(context);
  if (!server) {
    server = createTus(context).catch((error: unknown) => {
      tusServers.delete(context);
      throw error;
    });
    tusServers.set(context, server);
  }
  return server;
}

/** The upload routes; each request uploads to its site (its tickets, directories and TUS server). */
export async function registerUploadRoutes(app: FastifyInstance, sites: SiteDirectory): Promise<void> {
  await app.register(async (uploads) => {
    // Bodies are streams here: nothing is parsed or buffered by Fastify.
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, _payload, done) => done(null));

    uploads.put('/_uploads/files/:ticket', async (request: FastifyRequest, reply: FastifyReply) => {
      const context = sites.of(request);
      const limit = uploadLimit(context);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        requireTicket(context, (request.params as { ticket: string }).ticket, 'PUT');
        // Say no before reading; the connection closes so the unread body is not waited for.
        reply.header('connection', 'close');
        return sendError(reply, tooLarge(limit));
      }
      const ticket = claimTicket(context, (request.params as { ticket: string }).ticket, 'PUT');
      const incoming = join(mediaDirectories(context).incoming, `put-${randomBytes(12).toString('hex')}`);
      try {
        await pipeline(request.raw, limitTo(limit), createWriteStream(incoming));
        return await finish(context, ticket, incoming, (request.query as { filename?: unknown }).filename);
      } catch (error) {
        await rm(incoming, { force: true });
        releaseTicket(context, ticket);
        if (error instanceof EmulatorError) {
          reply.header('connection', 'close');
          return sendError(reply, error);
        }
        throw error;
      }
    });

    uploads.put('/_uploads/tus/:ticket', async (request: FastifyRequest, reply: FastifyReply) => {
      const context = sites.of(request);
      const tusDirectory = mediaDirectories(context).tus;
      const unclaimed = requireTicket(context, (request.params as { ticket: string }).ticket, 'TUS');
      if (!unclaimed.tusUploadId)
        return sendError(
          reply,
          applicationError(409, 'UPLOAD_INCOMPLETE', 'The resumable upload has not received all its bytes yet'),
        );
      const ticket = claimTicket(context, (request.params as { ticket: string }).ticket, 'TUS');
      const result = await finish(
        context,
        ticket,
        join(tusDirectory, ticket.tusUploadId!),
        (request.query as { filename?: unknown }).filename,
      ).catch((error: unknown) => {
        releaseTicket(context, ticket);
        throw error;
      });
      await rm(join(tusDirectory, `${ticket.tusUploadId}.json`), { force: true });
      return result;
    });

    const toTus = async (request: FastifyRequest, reply: FastifyReply) => {
      // Headers set on the reply are not sent once it is hijacked: the request id goes on the raw response.
      reply.raw.setHeader('x-wix-request-id', request.id);
      const server = await tusOf(sites.of(request));
      reply.hijack();
      await server.handle(request.raw, reply.raw);
    };
    uploads.route({ method: ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url: '/_uploads/tus', handler: toTus });
    uploads.route({ method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url: '/_uploads/tus/:id', handler: toTus });
  });
}
