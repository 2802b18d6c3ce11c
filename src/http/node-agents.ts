/**
 * The keep-alive agents of the `node:http` handler: one pair for the whole process, not one per
 * client, so apps that create a client per visitor or per request (SSR) still reuse connections.
 */
import { Agent as HttpAgent, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * How long an idle connection is kept for the next request: as undici (Node's fetch) does, a
 * little under the 5 s idle limit of most servers, so a request is never sent on a connection
 * the server is closing. A server's shorter `Keep-Alive: timeout=` hint lowers it.
 */
export const IDLE_SOCKET_MS = 4000;

/** How much earlier than a server's `Keep-Alive: timeout=` hint the connection is closed (Node's own margin). */
const HINT_MARGIN_MS = 1000;

/** The idle limit each connection's last response asked for, when it named one. */
const idleLimits = new WeakMap<Socket, number>();

/** Notes a response's `Keep-Alive: timeout=` hint, for when its connection goes idle. */
export function noteKeepAliveHint(response: IncomingMessage): void {
  const hint = /^timeout=(\d+)/.exec(response.headers['keep-alive'] ?? '')?.[1];
  if (hint) idleLimits.set(response.socket, Math.min(IDLE_SOCKET_MS, Number(hint) * 1000 - HINT_MARGIN_MS));
}

/**
 * An agent class that closes a connection once it has been idle for the limit. Node's own
 * `timeout` agent option would do it too, but keeps that timer running while a request uses the
 * connection, refreshing it on every read and write and listening for it anew on every request:
 * several µs of every call. Here the timer runs only while the connection waits in the pool; the
 * agent destroys a pooled connection whose timer fires.
 */
function idleLimited<Base extends typeof HttpAgent>(Agent: Base) {
  return class IdleLimitedAgent extends Agent {
    override keepSocketAlive(socket: Duplex): boolean {
      // Node's (without an agent `timeout`): keep-alive on, unref, refused when the server's hint is too short.
      const kept = super.keepSocketAlive(socket) as unknown as boolean;
      if (kept) (socket as Socket).setTimeout(idleLimits.get(socket as Socket) ?? IDLE_SOCKET_MS);
      return kept;
    }

    override reuseSocket(socket: Duplex, request: ClientRequest): void {
      (socket as Socket).setTimeout(0);
      super.reuseSocket(socket, request);
    }
  };
}

const IdleLimitedHttpAgent = idleLimited(HttpAgent);
const IdleLimitedHttpsAgent = idleLimited(HttpsAgent);

let agents: { http: HttpAgent; https: HttpsAgent } | undefined;

/** The process's agents, made on first use. */
export const sharedAgents = (): { http: HttpAgent; https: HttpsAgent } =>
  (agents ??= { http: new IdleLimitedHttpAgent({ keepAlive: true }), https: new IdleLimitedHttpsAgent({ keepAlive: true }) });
