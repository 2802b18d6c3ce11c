/** A loopback origin nothing listens on, for the tests of what a command says when no emulator (or receiver) answers. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The origin of a loopback port nothing listens on (it was free a moment ago). */
export async function closedOrigin(): Promise<string> {
  const closed = createServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  return origin;
}
