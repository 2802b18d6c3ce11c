/**
 * The keep-alive agents of the `node:http` handler: one pair for the whole process, not one per
 * client, so apps that create a client per visitor or per request (SSR) still reuse connections.
 */
import { Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * How long an idle connection is kept for the next request: as undici (Node's fetch) does, a
 * little under the 5 s idle limit of most servers, so a request is never sent on a connection
 * the server is closing. A server's shorter `Keep-Alive: timeout=` hint lowers it.
 */
const IDLE_SOCKET_MS = 4000;

/** How much earlier than a server's `Keep-Alive: timeout=` hint the connection is closed (Node's own margin). */
const HINT_MARGIN_MS = 1000;

/** The idle limit of connections whose last response asked for less than {@link IDLE_SOCKET_MS}. */
const idleLimits = new WeakMap<Socket, number>();

/** The last `Keep-Alive` value seen and the idle limit it gives: servers send the same one every time. */
let lastHint = { value: '', limitMs: IDLE_SOCKET_MS };

/**
 * Notes a response's `Keep-Alive: timeout=` hint, for when its connection goes idle. (A hint that
 * later grows again is not noted: the connection then closes a little early, which is safe.)
 */
export function noteKeepAliveHint(response: IncomingMessage): void {
  const value = response.headers['keep-alive'];
  if (typeof value !== 'string') return;
  if (value !== lastHint.value) {
    const seconds = /^timeout=(\d+)/.exec(value)?.[1];
    lastHint = {
      value,
      limitMs: seconds ? Math.min(IDLE_SOCKET_MS, Number(seconds) * 1000 - HINT_MARGIN_MS) : IDLE_SOCKET_MS,
    };
  }
  if (lastHint.limitMs < IDLE_SOCKET_MS) idleLimits.set(response.socket, lastHint.limitMs);
}

/** How often TCP keep-alive probes an idle connection (Node's default for agents). */
const KEEP_ALIVE_PROBE_MS = 1000;

/**
 * Makes `agent` close a connection once it has been idle for the limit. Node's own `timeout`
 * agent option would do it too, but clears the connection's timer after every response and sets
 * it again when the connection is pooled (and listens for it anew on every request): a new timer,
 * and often a new timer list for Node, per call. Here the timer is set once per connection and
 * left running: Node refreshes it on every read and write, so it fires only after the limit without
 * traffic, and the agent destroys the connection if it is then waiting in the pool (a request that
 * takes longer is left alone).
 *
 * `keepSocketAlive` is Node's documented hook for this; the replacement does what Node's does
 * (TCP keep-alive on, unref; a server that closes idle connections within a second is not worth
 * keeping) except setting the timer again, which Node's would reset to the agent's `timeout`.
 */
function limitIdleTime<A extends HttpAgent>(agent: A): A {
  agent.keepSocketAlive = (duplex: Duplex) => {
    const socket = duplex as Socket;
    const limit = idleLimits.get(socket) ?? IDLE_SOCKET_MS;
    if (limit <= 0) return false;
    socket.setKeepAlive(true, KEEP_ALIVE_PROBE_MS);
    socket.unref();
    if (socket.timeout !== limit) socket.setTimeout(limit);
    return true;
  };
  return agent;
}

let agents: { http: HttpAgent; https: HttpsAgent } | undefined;

/** The process's agents, made on first use. */
export const sharedAgents = (): { http: HttpAgent; https: HttpsAgent } =>
  (agents ??= {
    http: limitIdleTime(new HttpAgent({ keepAlive: true, keepAliveMsecs: KEEP_ALIVE_PROBE_MS })),
    https: limitIdleTime(new HttpsAgent({ keepAlive: true, keepAliveMsecs: KEEP_ALIVE_PROBE_MS })),
  });
