/**
 * Forbids every socket in the calling test file: `net.Socket.prototype.connect` (every TCP client:
 * `node:http`, undici's `fetch`, TLS) and `net.Server.prototype.listen` (every server) throw, from
 * before the file's first hook until after its last. The in-process tests run under it, so an
 * emulator or a client that reached for the network would fail them.
 */
import net from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** What a forbidden call throws. */
export class SocketForbiddenError extends Error {
  constructor(what: string) {
    super(`${what}: sockets are forbidden in this test file`);
  }
}

/** Forbids sockets for the file; call it first, before the hooks that make emulators. */
export function forbidSockets(): void {
  const { connect } = net.Socket.prototype;
  const { listen } = net.Server.prototype;
  beforeAll(() => {
    net.Socket.prototype.connect = function forbiddenConnect() {
      throw new SocketForbiddenError('net.Socket.connect');
    } as typeof connect;
    net.Server.prototype.listen = function forbiddenListen() {
      throw new SocketForbiddenError('net.Server.listen');
    } as typeof listen;
  });
  afterAll(() => {
    net.Socket.prototype.connect = connect;
    net.Server.prototype.listen = listen;
  });
}
