/**
 * The parts of the demo data that are slow to make: the demo member's password hash (scrypt, made
 * costly on purpose) and the demo images (drawn and compressed). Every start and every reset seeds
 * the demo data, so they are made once, by `npm run codegen`, into `generated/emulator-demo.ts`, and
 * seeding reads them from there (`npm run codegen:check` fails when that file no longer matches
 * what is described here). Real sign-ups hash their passwords as always (a random salt each).
 */
import { createHash } from 'node:crypto';
import { hashPasswordSync } from './services/accounts/identity/passwords.js';
import { type Color, gradientPng } from './services/media/png.js';

/** The password of the demo member who can sign in. */
export const DEMO_PASSWORD = 'demo-password';

/** A demo image: a gradient from one colour to another. */
export interface DemoImage {
  fileName: string;
  width: number;
  height: number;
  from: Color;
  to: Color;
}

/** The demo images, in the order they are seeded. */
export const DEMO_IMAGES: readonly DemoImage[] = [
  { fileName: 'sunrise.png', width: 640, height: 400, from: [255, 170, 60], to: [120, 40, 160] },
  { fileName: 'deep-sea.png', width: 480, height: 320, from: [40, 120, 220], to: [10, 30, 70] },
];

/** What a made image is filed under: what it is drawn from, so a changed description finds nothing. */
export const demoImageKey = (image: DemoImage): string =>
  `${image.width}x${image.height} ${image.from.join(',')} to ${image.to.join(',')}`;

/** The made assets, as `generated/emulator-demo.ts` holds them. */
export interface DemoAssets {
  /** Stored password hashes, by clear password. */
  passwordHashes: Record<string, string>;
  /** PNG bytes in base64, by {@link demoImageKey}. */
  images: Record<string, string>;
}

/**
 * Makes the assets (the codegen calls this). The same every time, so that the check can compare:
 * the password's salt is derived from the password, which is public anyway.
 */
export function makeDemoAssets(): DemoAssets {
  const salt = createHash('sha256').update(`sitekit demo password: ${DEMO_PASSWORD}`).digest().subarray(0, 16);
  return {
    passwordHashes: { [DEMO_PASSWORD]: hashPasswordSync(DEMO_PASSWORD, salt) },
    images: Object.fromEntries(
      DEMO_IMAGES.map((image) => [
        demoImageKey(image),
        gradientPng(image.width, image.height, image.from, image.to).toString('base64'),
      ]),
    ),
  };
}
