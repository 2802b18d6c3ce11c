/**
 * The demo data's slow parts (the demo member's password hash, the demo images) are made once, by
 * the codegen (`emulator/demo-assets.ts` → `generated/emulator-demo.ts`): a start and a reset hash
 * no password and draw no image, and what they seed is what the description makes, in the
 * password scheme of real sign-ups.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_ASSETS } from '../../../generated/emulator-demo.js';
import { DEMO_IMAGES, DEMO_PASSWORD, makeDemoAssets } from '../../../emulator/demo-assets.js';
import { verifyPassword } from '../../../emulator/services/accounts/identity/passwords.js';
import { DEMO_EMAIL } from '../../../emulator/services/accounts/members/demo.js';
import { LoginState } from '../../../src/index.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

/** How many password hashes and images the emulator made while the counting was on. */
const made = vi.hoisted(() => ({ counting: false, hashes: 0, images: 0 }));

vi.mock('../../../emulator/services/accounts/identity/passwords.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../emulator/services/accounts/identity/passwords.js')>();
  return {
    ...actual,
    hashPasswordSync: (...args: Parameters<typeof actual.hashPasswordSync>) => {
      if (made.counting) made.hashes++;
      return actual.hashPasswordSync(...args);
    },
  };
});
vi.mock('../../../emulator/services/media/png.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../emulator/services/media/png.js')>();
  return {
    ...actual,
    gradientPng: (...args: Parameters<typeof actual.gradientPng>) => {
      if (made.counting) made.images++;
      return actual.gradientPng(...args);
    },
  };
});

let emulator: TestEmulator;
beforeAll(async () => {
  made.counting = true;
  emulator = await startEmulator();
  await emulator.reset();
  made.counting = false;
});
afterAll(() => emulator?.close());

describe('the demo data', () => {
  it('is seeded at start and at reset without hashing a password or drawing an image', () => {
    expect(made).toMatchObject({ hashes: 0, images: 0 });
  });

  it('seeds the images drawn at build, as real PNGs of the described sizes', async () => {
    const { files } = await emulator.admin.media.listFiles();
    for (const image of DEMO_IMAGES) {
      const file = files?.find((candidate) => candidate.displayName === image.fileName);
      expect(file?.media?.image?.image, image.fileName).toContain(
        `originWidth=${image.width}&originHeight=${image.height}`,
      );
    }
  });

  it('lets the demo member sign in with the demo password', async () => {
    const outcome = await emulator.newVisitor().auth.login({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(outcome.loginState).toBe(LoginState.SUCCESS);
  });

  it('holds the hash in the scheme of real sign-ups, and what the description makes (npm run codegen)', async () => {
    const hash = DEMO_ASSETS.passwordHashes[DEMO_PASSWORD]!;
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword(DEMO_PASSWORD, hash)).toBe(true);
    expect(await verifyPassword('not-the-password', hash)).toBe(false);
    expect(makeDemoAssets()).toEqual(DEMO_ASSETS);
  });
});
