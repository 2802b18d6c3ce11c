import { describe, expect, it } from 'vitest';
import {
  BODY_CHARACTERS_PER_READ,
  createRequestLog,
  type RequestRecord,
} from '../../../emulator/control/request-log.js';

const record = (index: number): RequestRecord => ({
  requestId: `request-${index}`,
  receivedAt: Date.UTC(2026, 0, 1) + index,
  method: 'GET',
  url: `/wix-data/v2/items/${index}?dataCollectionId=Movies`,
  operationId: index % 2 ? 'get' : undefined,
  status: index % 3 ? 200 : 404,
  durationMs: 1.234,
  caller: undefined,
  decisions: undefined,
  faultId: undefined,
  faultAnswered: undefined,
  requestBody: undefined,
  responseBody: index % 2 ? `{\n  "n": ${index}\n}` : undefined,
});

describe('the request log', () => {
  it('lists the last `capacity` requests, newest first, each as it was recorded', () => {
    const log = createRequestLog(10);
    for (let index = 0; index < 25; index++) log.add(record(index));
    const listed = log.list();
    expect(listed.map((entry) => entry.requestId)).toEqual(
      Array.from({ length: 10 }, (_, age) => `request-${24 - age}`),
    );
    expect(listed[0]).toEqual({
      requestId: 'request-24',
      time: new Date(Date.UTC(2026, 0, 1) + 24).toISOString(),
      method: 'GET',
      path: '/wix-data/v2/items/24',
      status: 404,
      durationMs: 1.23,
    });
    expect(listed[1]).toMatchObject({ requestId: 'request-23', operationId: 'get', responseBody: '{\n  "n": 23\n}' });
  });

  it('lists fewer than `capacity` before it is full; filters and limits; forgets all on clear', () => {
    const log = createRequestLog(10);
    for (let index = 0; index < 4; index++) log.add(record(index));
    expect(log.list().map((entry) => entry.requestId)).toEqual(['request-3', 'request-2', 'request-1', 'request-0']);
    expect(log.list({ operationId: 'get', limit: 1 }).map((entry) => entry.requestId)).toEqual(['request-3']);
    expect(log.list({ status: 404 }).map((entry) => entry.requestId)).toEqual(['request-3', 'request-0']);
    log.clear();
    expect(log.list()).toEqual([]);
    log.add(record(7));
    expect(log.list().map((entry) => entry.requestId)).toEqual(['request-7']);
  });

  it('answers the bodies of the newest requests up to what one read holds, a note for the older ones', () => {
    const log = createRequestLog(1000);
    const body = 'x'.repeat(30_000);
    for (let index = 0; index < 1000; index++) log.add({ ...record(index), requestBody: body, responseBody: body });
    const listed = log.list();
    const answered = listed.filter((entry) => entry.responseBody === body).length;
    expect(answered).toBe(Math.floor(BODY_CHARACTERS_PER_READ / 2 / body.length));
    expect(listed.at(-1)!.requestBody).toMatch(/^\(30000 characters, not in this answer/);
    const characters = listed.reduce((sum, entry) => sum + entry.requestBody!.length + entry.responseBody!.length, 0);
    expect(characters).toBeLessThan(BODY_CHARACTERS_PER_READ + 1000 * 300);
  });
});
