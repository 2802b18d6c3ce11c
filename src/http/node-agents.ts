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
  const value = response.headers['keep-alive'];
  const hint = typeof value === 'string' ? /^timeout=(\d+)/.exec(value)?.[1] : undefined;
  if (hint) idleLimits.set(response.socket, Math.min(IDLE_SOCKET_MS, Number(hint) * 1000 - HINT_MARGIN_MS));
}

/**
 * Makes `agent` close a connection once it has been idle for the limit. Node's own `timeout`
 * agent option would do it too, but keeps that timer running while a request uses the
 * connection, refreshing it on every read and write and listening for it anew on every request:
 * several µs of every call. Here the timer runs only while the connection waits in the pool (the
 * agent destroys a pooled connection whose timer fires). Node documents both hooks as overridable.
 */
function limitIdleTime<A extends HttpAgent>(agent: A): A {
  const keepSocketAlive = agent.keepSocketAlive.bind(agent);
  const reuseSocket = agent.reuseSocket.bind(agent);
  // Node's (without an agent `timeout`): keep-alive on, unref, refused when the server's hint is too short.
  agent.keepSocketAlive = (socket: Duplex) => {
    const kept = keepSocketAlive(socket) as unknown as boolean;
    if (kept) (socket as Socket).setTimeout(idleLimits.get(socket as Socket) ?? IDLE_SOCKET_MS);
    return kept;
  };
  agent.reuseSocket = (socket: Duplex, request: ClientRequest) => {
    (socket as Socket).setTimeout(0);
    reuseSocket(socket, request);
  };
  return agent;
}

let agents: { http: HttpAgent; https: HttpsAgent } | undefined;

/** The process's agents, made on first use. */
export const sharedAgents = (): { http: HttpAgent; https: HttpsAgent } =>
  (agents ??= { http: limitIdleTime(new HttpAgent({ keepAlive: true })), https: limitIdleTime(new HttpsAgent({ keepAlive: true })) });
