/** nock helpers: no real network in a test file, capture every request to the test host and answer from a queue. */
import nock from 'nock';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const BASE = 'https://api.test';

/**
 * For the test file that calls it: no real network (every request must be answered by a nock
 * scope), and no scope left over from one test to the next.
 */
export function useNock(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());
}

export interface Captured {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or undefined for none. */
  body: unknown;
}

type Reply = [number, unknown?, Record<string, string>?];

/**
 * Intercepts every request to BASE; `reply` decides the answer (default 200 `{}`). Returns the
 * list the requests are captured into.
 */
export function captureAll(reply: (req: Captured, n: number) => Reply = () => [200, {}]): Captured[] {
  const log: Captured[] = [];
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
    nock(BASE)
      .persist()
      .intercept(() => true, method)
      .reply(function (uri, body) {
        const req: Captured = {
          method,
          url: uri,
          headers: this.req.headers,
          body: body === '' ? undefined : typeof body === 'string' ? JSON.parse(body) : body,
        };
        log.push(req);
        const [status, json, headers] = reply(req, log.length);
        return [
          status,
          json === undefined ? '' : typeof json === 'string' ? json : JSON.stringify(json),
          { 'content-type': 'application/json', ...headers },
        ];
      });
  }
  return log;
}

/** Answers POSTs to `path` with `replies` in order (one each) and records their JSON bodies. */
export function capturePosts(path: string, ...replies: object[]) {
  const bodies: any[] = [];
  let scope = nock(BASE);
  for (const reply of replies.length ? replies : [{}])
    scope = scope.post(path, (b) => (bodies.push(b), true)).reply(200, reply);
  return { bodies, scope };
}
