/** The emulator's server: control API, tokens, auth on every call, error shapes, static fallback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { isElevationRequiredError } from '../../../src/index.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

describe('control API', () => {
  it('answers health and info', async () => {
    const health = await emulator.fetch('/_emulator/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'sqlite-memory' });
    const info = await (await emulator.fetch('/_emulator/info')).json();
    expect(info).toEqual({
      url: emulator.url,
      apiKey: emulator.info.apiKey,
      siteId: emulator.info.siteId,
      clientId: emulator.info.clientId,
      publicKey: expect.stringContaining('BEGIN PUBLIC KEY'),
      engine: emulator.context.store.engine,
    });
    expect(['node:sqlite', 'better-sqlite3', 'wasm']).toContain(info.engine);
  });

  it('reads and validates config', async () => {
    const before = await (await emulator.fetch('/_emulator/config')).json();
    expect(before.config.tokenLifetimeSeconds).toBe(14400);
    const bad = await emulator.fetch('/_emulator/config', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { tokenLifetimeSeconds: 'long', nope: 1 } }),
    });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.details.validationError.fieldViolations.map((violation: { field: string }) => violation.field)).toEqual(
      ['nope', 'tokenLifetimeSeconds'],
    );
    const good = await emulator.fetch('/_emulator/config', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { tokenLifetimeSeconds: 600 } }),
    });
    expect((await good.json()).config.tokenLifetimeSeconds).toBe(600);
    await emulator.fetch('/_emulator/config', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { tokenLifetimeSeconds: 14400 } }),
    });
  });
});

describe('auth on every call', () => {
  it('refuses a call without Authorization with a 401 in the production shape and a request id', async () => {
    const response = await emulator.fetch('/wix-data/v2/collections');
    expect(response.status).toBe(401);
    expect(response.headers.get('x-wix-request-id')).toMatch(/[0-9a-f-]{36}/);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: 'UNAUTHENTICATED' } } });
  });

  it('refuses a forged token', async () => {
    const token = await (
      await emulator.fetch('/oauth2/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: emulator.info.clientId, grantType: 'anonymous' }),
      })
    ).json();
    const [header, payload] = token.access_token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
        role: 'member',
        memberId: 'someone',
      }),
    ).toString('base64url');
    const forged = `${header}.${forgedPayload}.${token.access_token.split('.')[2]}`;
    const response = await emulator.fetch('/wix-data/v2/collections', { headers: { authorization: forged } });
    expect(response.status).toBe(401);
    const genuine = await emulator.fetch('/wix-data/v2/collections', {
      headers: { authorization: token.access_token },
    });
    expect(genuine.status).toBe(200);
  });

  it('keeps refresh tokens reusable, as the platform does: each renewal answers the same one; an unknown one is refused', async () => {
    const post = (body: object) =>
      emulator.fetch('/oauth2/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const first = await (await post({ clientId: emulator.info.clientId, grantType: 'anonymous' })).json();
    expect(first).toMatchObject({
      expires_in: 14400,
      refresh_token: expect.any(String),
      access_token: expect.any(String),
    });
    for (let renewal = 0; renewal < 2; renewal++) {
      const renewed = await post({
        clientId: emulator.info.clientId,
        grantType: 'refresh_token',
        refreshToken: first.refresh_token,
      });
      expect(renewed.status).toBe(200);
      expect((await renewed.json()).refresh_token).toBe(first.refresh_token);
    }
    const unknown = await post({
      clientId: emulator.info.clientId,
      grantType: 'refresh_token',
      refreshToken: `${first.refresh_token}x`,
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).details.applicationError.code).toBe('INVALID_GRANT');
  });

  it('gives an elevated-only route called by a visitor a 403 (the SDK refuses it before sending)', async () => {
    const refused = await emulator.visitor.collections
      .createDataCollection({ _id: 'Nope' })
      .catch((caught: unknown) => caught);
    expect(isElevationRequiredError(refused)).toBe(true);
    const token = await (
      await emulator.fetch('/oauth2/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: emulator.info.clientId, grantType: 'anonymous' }),
      })
    ).json();
    const response = await emulator.fetch('/wix-data/v2/collections', {
      method: 'POST',
      headers: { authorization: token.access_token, 'content-type': 'application/json' },
      body: JSON.stringify({ collection: { id: 'Nope' } }),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).details.applicationError.code).toBe('PERMISSION_DENIED');
  });
});

describe('bad input', () => {
  const admin = () => ({ authorization: emulator.info.apiKey, 'content-type': 'application/json' });

  it('malformed JSON is a 400 validation error, never a 500', async () => {
    const response = await emulator.fetch('/wix-data/v2/collections', {
      method: 'POST',
      headers: admin(),
      body: '{"collection": ',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).details.validationError.fieldViolations[0]).toMatchObject({
      field: 'request',
      violatedRule: 'FORMAT',
    });
  });

  it('schema violations are listed by field, sorted', async () => {
    const response = await emulator.fetch('/wix-data/v2/collections', {
      method: 'POST',
      headers: admin(),
      body: JSON.stringify({ collection: { id: 'x', fields: [{ key: 'a', type: 'NOPE' }], maxPageSize: 'many' } }),
    });
    expect(response.status).toBe(400);
    const fields = (await response.json()).details.validationError.fieldViolations.map(
      (violation: { field: string }) => violation.field,
    );
    expect(fields).toEqual(['collection.fields.0.type', 'collection.maxPageSize']);
  });

  it('unknown API routes are a 404 in the production shape; bodies over the limit a 413', async () => {
    const unknown = await emulator.fetch('/wix-data/v2/nothing-here', { method: 'POST', headers: admin(), body: '{}' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: expect.stringContaining('Not Found') });
    const huge = await emulator.fetch('/wix-data/v2/collections', {
      method: 'POST',
      headers: admin(),
      body: JSON.stringify({ collection: { id: 'big', displayName: 'x'.repeat(17 * 1024 * 1024) } }),
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).details.applicationError.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('serves a page at / when the console is not built, and keeps API paths out of the fallback', async () => {
    const page = await emulator.fetch('/some/client/route');
    expect(page.headers.get('content-type')).toContain('text/html');
    const api = await emulator.fetch('/_emulator/unknown');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
  });
});
