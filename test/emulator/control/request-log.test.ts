import { describe, expect, it } from 'vitest';
import { createRequestLog, type RequestRecord } from '../../../emulator/control/request-log.js';

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
  requestBody: undefined,
  responseBody: index % 2 ? `{"n":${index}}` : undefined,
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
});
