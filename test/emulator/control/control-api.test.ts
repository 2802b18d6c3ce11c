/**
 * The control API declared once (schema/control/emulator.yaml): the document it serves, requests
 * validated from it (an unknown field or fault operation is a 400 naming the nearest names), and
 * its typed client's errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../../emulator/control/client.js';
import { isNetworkError, isValidationError, type ValidationError } from '../../../src/index.js';
import { callJson, violatedFields } from '../../helpers/json-calls.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

/** The rejection of `promise` (which must reject). */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

/** The field violations of a rejected control call. */
const violationsOf = (error: unknown) => {
  expect(isValidationError(error)).toBe(true);
  return (error as ValidationError).violations.map(({ field, description }) => ({ field, description }));
};

describe('GET /_emulator/openapi.json', () => {
  it('describes every control path with its request bodies', async () => {
    const { status, body: document } = await callJson(emulator, 'GET', '/_emulator/openapi.json');
    expect(status).toBe(200);
    expect(document.openapi).toBe('3.1.0');
    const paths = Object.keys(document.paths);
    for (const path of ['/_emulator/faults', '/_emulator/clock', '/_emulator/import', '/_emulator/config'])
      expect(paths).toContain(path);
    const faultBody = document.paths['/_emulator/faults'].post.requestBody.content['application/json'].schema;
    expect(faultBody).toEqual({ $ref: '#/components/schemas/FaultInput' });
    expect(Object.keys(document.components.schemas.FaultInput.properties)).toContain('latencyMs');
    expect(document.components.schemas.FaultOperation.enum).toEqual(
      expect.arrayContaining(['getDataItem', 'items.query', 'queryDataItems', 'items.get']),
    );
    // The document served is the one shipped (sitekit-sdk/emulator/openapi.json, built from it).
    const shipped = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../../generated/control/openapi.json'), 'utf8'),
    );
    expect(document).toEqual(shipped);
    // Every write is described with its body.
    for (const [path, item] of Object.entries<Record<string, { requestBody?: unknown }>>(document.paths))
      for (const [method, operation] of Object.entries(item))
        if (['post', 'put'].includes(method) && path != '/_emulator/faults/{id}')
          expect(operation.requestBody, `${method} ${path}`).toBeDefined();
  });
});

describe('fault rules fail loudly', () => {
  it('refuses an unknown operation, naming the nearest names', async () => {
    const error = await rejection(emulator.faults.add({ operation: 'getDataItm' as 'getDataItem', status: 503 }));
    const [violation] = violationsOf(error);
    expect(violation?.field).toBe('operation');
    expect(violation?.description).toContain('getDataItem');
    expect(await emulator.faults.list()).toEqual([]);
  });

  it('refuses an unknown field, naming the nearest field', async () => {
    const answer = await callJson(emulator, 'POST', '/_emulator/faults', {
      body: { opration: 'queryDataItems', status: 503 },
    });
    expect(answer.status).toBe(400);
    expect(violatedFields(answer)).toEqual(['opration']);
    expect(answer.body.details.validationError.fieldViolations[0].violatedRule).toBe('FIELD_NOT_ALLOWED');
    expect(answer.body.details.validationError.fieldViolations[0].description).toContain('nearest: operation');
  });

  it("accepts the official SDK's method name, and the rule fires", async () => {
    const item = await emulator.admin.items.insert('Movies', { title: 'Faulted' });
    const { id } = await emulator.faults.add({ operation: 'getDataItem', status: 503, times: 1 });
    try {
      const response = await emulator.fetch(`/wix-data/v2/items/${item._id}?dataCollectionId=Movies`, {
        headers: { authorization: emulator.info.apiKey },
      });
      expect(response.status).toBe(503);
      expect(await emulator.faults.list()).toEqual([expect.objectContaining({ id, fired: 1 })]);
    } finally {
      await emulator.faults.clear();
      await emulator.admin.items.remove('Movies', item._id!);
    }
  });

  it('a rule needs a status unless it only adds latency; a status out of range is refused', async () => {
    expect(violationsOf(await rejection(emulator.faults.add({ times: 1 } as never))).map((v) => v.field)).toEqual([
      'status',
    ]);
    const outOfRange = violationsOf(await rejection(emulator.faults.add({ status: 302 })));
    expect(outOfRange.map((violation) => violation.field)).toContain('status');
    expect((await emulator.faults.add({ latencyMs: 5, times: 1 })).id).toEqual(expect.any(String));
    await emulator.faults.clear();
  });
});

describe('validated from the schema', () => {
  it('a query string is typed by it: a bad number or flag is a 400 naming it', async () => {
    const answer = await callJson(emulator, 'GET', '/_emulator/requests?limit=zero&refused=maybe');
    expect(answer.status).toBe(400);
    expect(violatedFields(answer)).toEqual(['limit', 'refused']);
    expect((await emulator.requests({ limit: 1 })).length).toBe(1);
  });

  it('the clock takes exactly one move', async () => {
    const error = await rejection(
      emulator.control.call('moveClock', { body: { advanceSeconds: 5, reset: true } as never }),
    );
    expect(isValidationError(error)).toBe(true);
    expect((await emulator.clock.now()).offsetSeconds).toBe(0);
  });
});

describe('the typed client', () => {
  it('config, outbox and reset through the test bench', async () => {
    const changed = await emulator.config.update({ captchaRequired: true });
    expect(changed.captchaRequired).toBe(true);
    expect((await emulator.config.get()).captchaRequired).toBe(true);
    const refused = violationsOf(await rejection(emulator.config.update({ nope: 1 })));
    expect(refused.map((violation) => violation.field)).toEqual(['nope']);
    await emulator.config.update({ captchaRequired: false });
    expect(await emulator.outbox('nobody@example.test')).toEqual([]);
    expect(await emulator.reset({ seed: true })).toEqual({ reset: true, seeded: true });
  });

  it('an emulator that is not there is a NetworkError; an injected fetch is used', async () => {
    const seen: string[] = [];
    const control = createControlClient({
      baseUrl: 'http://127.0.0.1:1',
      fetch: (url, init) => {
        seen.push(`${init.method} ${url}`);
        return fetch(url, init);
      },
    });
    expect(isNetworkError(await rejection(control.call('getHealth')))).toBe(true);
    expect(seen).toEqual(['GET http://127.0.0.1:1/_emulator/health']);
  });
});
