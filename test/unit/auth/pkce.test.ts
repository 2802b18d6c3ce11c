/** PKCE (RFC 7636): verifiers, and their S256 challenge by WebCrypto's digest or, where a page has none, ours. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { codeChallengeOf, generatePKCE } from '../../../src/auth/pkce.js';
import { isSiteKitError, RequestError } from '../../../src/errors/index.js';

const VERIFIER = /^[A-Za-z0-9\-._~]+$/;
const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');

// RFC 7636, Appendix B: the verifier and the S256 challenge of the worked example.
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

afterEach(() => vi.unstubAllGlobals());

/** `crypto` as a page without a secure context has it: random values, no `subtle`. */
const withoutSubtle = () => {
  const { getRandomValues } = globalThis.crypto;
  vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(globalThis.crypto) });
};

describe('the S256 challenge', () => {
  it("is the RFC 7636 test vector's with WebCrypto's digest", async () => {
    const digest = vi.spyOn(globalThis.crypto.subtle, 'digest');
    expect(await codeChallengeOf(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
    expect(digest).toHaveBeenCalledWith('SHA-256', expect.any(Uint8Array));
    digest.mockRestore();
  });

  it("is the RFC 7636 test vector's without crypto.subtle (plain-http pages), by our SHA-256", async () => {
    withoutSubtle();
    expect(globalThis.crypto.subtle).toBeUndefined();
    expect(await codeChallengeOf(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
  });

  it("is the RFC 7636 test vector's where there is no crypto at all (a verifier given), by our SHA-256", async () => {
    vi.stubGlobal('crypto', undefined);
    expect(await codeChallengeOf(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
  });

  it('is the same both ways for any verifier', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 43, maxLength: 128 }), async (verifier) => {
        const webCrypto = await codeChallengeOf(verifier);
        withoutSubtle();
        const ours = await codeChallengeOf(verifier);
        vi.unstubAllGlobals();
        expect(ours).toBe(webCrypto);
        expect(webCrypto).toBe(s256(verifier));
      }),
      { numRuns: 50 },
    );
  });
});

describe('generatePKCE', () => {
  it('any length from 43 to 128 gives a verifier of that length and alphabet whose challenge is its SHA-256', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 43, max: 128 }), async (n) => {
        const { codeVerifier, codeChallenge } = await generatePKCE(n);
        expect(codeVerifier).toHaveLength(n);
        expect(codeVerifier).toMatch(VERIFIER);
        expect(codeChallenge).toBe(s256(codeVerifier));
        expect(codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/); // base64url, no padding
      }),
      { numRuns: 100 },
    );
  });

  it('both ends of the range are lengths: 43 and 128 (not left to the random draw above)', async () => {
    expect((await generatePKCE(43)).codeVerifier).toHaveLength(43);
    expect((await generatePKCE(128)).codeVerifier).toHaveLength(128);
  });

  it('defaults to 43 characters, and verifiers differ', async () => {
    const first = await generatePKCE();
    expect(first.codeVerifier).toHaveLength(43);
    expect((await generatePKCE()).codeVerifier).not.toBe(first.codeVerifier);
  });

  it('rejects other lengths with the exact message', async () => {
    const error = (await generatePKCE(42).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(RequestError);
    expect(isSiteKitError(error)).toBe(true);
    expect(error.message).toBe('Expected a length between 43 and 128. Received 42.');
    expect((error as RequestError).field).toBe('length');
    await expect(generatePKCE(129)).rejects.toThrow('Received 129.');
    await expect(generatePKCE(Number.NaN)).rejects.toThrow('Expected a length between 43 and 128. Received NaN.');
    // A fraction or a numeric string is no length (a typed array of 50.5 bytes silently has 50).
    await expect(generatePKCE(50.5)).rejects.toThrow('Expected a length between 43 and 128. Received 50.5.');
    await expect(generatePKCE('50' as never)).rejects.toThrow('Expected a length between 43 and 128. Received 50.');
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer({ max: 42 }), fc.integer({ min: 129 })), async (n) => {
        await expect(generatePKCE(n)).rejects.toThrow(`Expected a length between 43 and 128. Received ${n}.`);
      }),
    );
  });
});
