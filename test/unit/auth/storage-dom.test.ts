// @vitest-environment jsdom
/** Token storage adapters in a browser (jsdom): localStorage and document.cookie. */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  cookieTokenStorage,
  localStorageTokenStorage,
  OAuthStrategy,
  parseFromUrl,
  type Tokens,
} from '../../../src/auth/index.js';

const t = (value: string): Tokens => ({
  accessToken: { value, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
  refreshToken: { value: `R-${value}`, role: 'member' },
});

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'sitekit_tokens=; Max-Age=0; Path=/';
});

describe('in a browser', () => {
  it('localStorageTokenStorage persists under its key and is shared with another instance (another tab)', () => {
    const a = localStorageTokenStorage();
    a.setTokens(t('a'));
    expect(JSON.parse(localStorage.getItem('sitekit.tokens')!)).toEqual(t('a'));
    expect(localStorageTokenStorage().getTokens()).toEqual(t('a'));
    localStorage.setItem('sitekit.tokens', JSON.stringify(t('b')));
    expect(a.getTokens()).toEqual(t('b'));
    const session = localStorageTokenStorage('mine', sessionStorage);
    session.setTokens(t('s'));
    expect(JSON.parse(sessionStorage.getItem('mine')!)).toEqual(t('s'));
  });

  it('a strategy over localStorage survives a reload', () => {
    OAuthStrategy({ clientId: 'c', storage: localStorageTokenStorage() }).setTokens(t('m'));
    const reloaded = OAuthStrategy({ clientId: 'c', storage: localStorageTokenStorage() });
    expect(reloaded.loggedIn()).toBe(true);
    expect(reloaded.getTokens()).toEqual(t('m'));
  });

  it('cookieTokenStorage reads and writes document.cookie', () => {
    const s = cookieTokenStorage({ attributes: 'Path=/' });
    expect(s.getTokens()).toBeNull();
    s.setTokens(t('c'));
    expect(document.cookie).toContain('sitekit_tokens=');
    expect(cookieTokenStorage().getTokens()).toEqual(t('c'));
  });

  it('parseFromUrl defaults to window.location.href', () => {
    window.history.replaceState(null, '', '/cb?code=Q&state=QS#code=F&state=FS');
    expect(parseFromUrl()).toEqual({ code: 'F', state: 'FS' });
    expect(parseFromUrl(undefined, 'query')).toEqual({ code: 'Q', state: 'QS' });
  });
});
