/** Token storage adapters in Node, where `window`, `document` and `localStorage` do not exist. */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cookieTokenStorage,
  localStorageTokenStorage,
  memoryTokenStorage,
  OAuthStrategy,
  type Tokens,
} from '../../../src/auth/index.js';
import { createClient } from '../../../src/client.js';

const t = (value: string, role: 'visitor' | 'member' = 'member'): Tokens => ({
  accessToken: { value, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
  refreshToken: { value: `R-${value}`, role },
});

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('storage adapters without a DOM', () => {
  it('this file runs without window, document and localStorage', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    expect(typeof localStorage).toBe('undefined');
  });

  it('memoryTokenStorage holds what it is given', () => {
    const s = memoryTokenStorage();
    expect(s.getTokens()).toBeUndefined();
    s.setTokens(t('a'));
    expect(s.getTokens()).toEqual(t('a'));
    expect(memoryTokenStorage(t('b')).getTokens()).toEqual(t('b'));
  });

  it('localStorageTokenStorage falls back to memory where there is no localStorage', () => {
    const s = localStorageTokenStorage();
    expect(s.getTokens()).toBeNull();
    s.setTokens(t('a'));
    expect(s.getTokens()).toEqual(t('a'));
  });

  it('localStorageTokenStorage works with any Web Storage and ignores garbage', () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    } as Storage;
    const s = localStorageTokenStorage('k', storage);
    s.setTokens(t('a'));
    expect(JSON.parse(map.get('k')!)).toEqual(t('a'));
    map.set('k', JSON.stringify(t('other tab')));
    expect(s.getTokens()).toEqual(t('other tab')); // read through: tabs share tokens
    map.set('k', '{not json');
    expect(s.getTokens()).toEqual(t('a')); // garbage → the copy in memory
  });

  it('localStorageTokenStorage keeps tokens in memory when the storage refuses to write (quota)', () => {
    const map = new Map<string, string>([['k', JSON.stringify(t('stale'))]]);
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: (k: string) => void map.delete(k),
    } as unknown as Storage;
    const s = localStorageTokenStorage('k', storage);
    s.setTokens(t('new'));
    expect(s.getTokens()).toEqual(t('new'));
  });

  it('cookieTokenStorage without a document keeps tokens in memory', () => {
    const s = cookieTokenStorage();
    expect(s.getTokens()).toBeNull();
    s.setTokens(t('a'));
    expect(s.getTokens()).toEqual(t('a'));
  });

  it('cookieTokenStorage on a server: reads the Cookie header, writes Set-Cookie strings', () => {
    const written: string[] = [];
    const value = encodeURIComponent(JSON.stringify(t('from-cookie')));
    const s = cookieTokenStorage({ read: () => `a=1; sitekit_tokens=${value}; b=2`, write: (c) => written.push(c) });
    expect(s.getTokens()).toEqual(t('from-cookie'));
    s.setTokens(t('renewed'));
    expect(written).toHaveLength(1);
    // The value only of the characters a cookie value may hold (RFC 6265: no quotes, commas, spaces...).
    expect(written[0]).toMatch(
      /^sitekit_tokens=[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+; Path=\/; Max-Age=31536000; SameSite=Lax; Secure$/,
    );
    expect(JSON.parse(decodeURIComponent(written[0]!.split(';')[0]!.split('=')[1]!))).toEqual(t('renewed'));
    expect(s.getTokens()).toEqual(t('renewed')); // the request header is stale now
  });

  it('cookieTokenStorage ignores other cookies, garbage and percent-garbage', () => {
    for (const cookie of [
      '',
      'x=1',
      'sitekit_tokens=%E0%A4%A',
      'sitekit_tokens={bad',
      'sitekit_tokens',
      ';;;=;',
      undefined,
      null,
    ]) {
      expect(cookieTokenStorage({ read: () => cookie }).getTokens()).toBeNull();
    }
    const named = cookieTokenStorage({
      name: 'tk',
      read: () => `tk=${encodeURIComponent(JSON.stringify(t('n')))}`,
      attributes: 'Path=/',
    });
    expect(named.getTokens()).toEqual(t('n'));
  });

  it('cookieTokenStorage reads its cookie by its whole name, not by a cookie whose name starts or ends with it', () => {
    const cookie = (tokens: Tokens) => encodeURIComponent(JSON.stringify(tokens));
    const read = () =>
      `sitekit_tokens_old=${cookie(t('old'))}; my_sitekit_tokens=${cookie(t('mine'))}; sitekit_tokens=${cookie(t('ours'))}`;
    expect(cookieTokenStorage({ read }).getTokens()).toEqual(t('ours'));
    expect(cookieTokenStorage({ read: () => `sitekit_tokens_old=${cookie(t('old'))}` }).getTokens()).toBeNull();
  });

  it('a strategy restores its tokens from storage and writes renewals back; unusable stored values count as none', async () => {
    const store = memoryTokenStorage(t('stored'));
    const auth = OAuthStrategy({ clientId: 'c', storage: store });
    expect(auth.loggedIn()).toBe(true);
    expect(auth.getTokens()).toEqual(t('stored'));
    const bad = OAuthStrategy({ clientId: 'c', storage: memoryTokenStorage({ nope: 1 } as unknown as Tokens) });
    expect(bad.getTokens().refreshToken.role).toBe('none');
    // Half a pair (an access token without its refresh token) is no pair either.
    const half = { accessToken: t('half').accessToken } as unknown as Tokens;
    const halfAuth = OAuthStrategy({ clientId: 'c', storage: memoryTokenStorage(half) });
    expect(halfAuth.getTokens().refreshToken.role).toBe('none');
    expect(halfAuth.loggedIn()).toBe(false);

    nock('https://api.test')
      .post('/oauth2/token')
      .reply(200, { access_token: 'A1', expires_in: 3600, refresh_token: 'R1' });
    nock('https://api.test')
      .get('/wix-data/v2/collections/x')
      .matchHeader('authorization', 'A1')
      .reply(200, { collection: { id: 'x' } });
    const fresh = memoryTokenStorage();
    const client = createClient({
      auth: OAuthStrategy({ clientId: 'c', tokenStorage: fresh }),
      baseUrl: 'https://api.test',
    });
    await client.collections.getDataCollection('x');
    expect(fresh.getTokens()!.refreshToken).toEqual({ value: 'R1', role: 'visitor' });
  });

  it('tokens given with a storage are written to it', () => {
    const store = memoryTokenStorage();
    OAuthStrategy({ clientId: 'c', tokens: t('given'), storage: store });
    expect(store.getTokens()).toEqual(t('given'));
  });
});
