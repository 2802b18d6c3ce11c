/**
 * The validator is shared by every emulator of the process: a second emulator compiles no schema
 * the first one compiled (before, each compiled every control route's validator again when it got
 * ready: most of an in-process emulator's first answer), and still refuses bad input the same way.
 */
import { Ajv } from 'ajv';
import { afterAll, expect, it, vi } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../../emulator/index.js';

const made: InProcessEmulator[] = [];
afterAll(async () => {
  vi.restoreAllMocks();
  for (const emulator of made) await emulator.close();
});

/** A query of the demo movies and a control call, through the emulator's fetch; the statuses. */
async function exercise(emulator: InProcessEmulator): Promise<number[]> {
  const headers = { authorization: emulator.info.apiKey, 'content-type': 'application/json' };
  const query = await emulator.fetch(`${emulator.info.url}/wix-data/v2/items/query`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ dataCollectionId: 'Movies', query: { paging: { limit: 1 } } }),
  });
  const refused = await emulator.fetch(`${emulator.info.url}/wix-data/v2/items/query`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ dataCollectionId: 'Movies', query: { paging: { limit: 'one' } } }),
  });
  await emulator.faults.list();
  return [query.status, refused.status];
}

it('a second emulator compiles nothing the first compiled, and refuses the same bad input', async () => {
  made.push(await createEmulator());
  expect(await exercise(made[0]!)).toEqual([200, 400]);
  // compile() answers a schema it has seen from its cache; _compileSchemaEnv is the compilation itself.
  const compile = vi.spyOn(Ajv.prototype as unknown as { _compileSchemaEnv: () => unknown }, '_compileSchemaEnv');
  made.push(await createEmulator());
  expect(await exercise(made[1]!)).toEqual([200, 400]);
  expect(compile).not.toHaveBeenCalled();
});
