/**
 * Demo media, written on first start and by `POST /_emulator/reset`: two gradient images (real
 * PNGs, so their descriptors carry real sizes, drawn at build: `emulator/demo-assets.ts`) and a
 * text document.
 */
import { DEMO_ASSETS } from '../../../generated/emulator-demo.js';
import { DEMO_IMAGES, type DemoImage, demoImageKey } from '../../demo-assets.js';
import type { EmulatorContext } from '../../service.js';
import { describeBuffer } from './descriptors.js';
import { saveFile } from './file-store.js';

/** The PNG bytes of a demo image, drawn at build. */
function demoImageBytes(image: DemoImage): Buffer {
  const base64 = DEMO_ASSETS.images[demoImageKey(image)];
  if (base64 === undefined) throw new Error(`generated/emulator-demo.ts has no ${image.fileName}: run npm run codegen`);
  return Buffer.from(base64, 'base64');
}

/** Writes the demo files (inside the seeding transaction). */
export function seedMedia(context: EmulatorContext): void {
  const files = [
    ...DEMO_IMAGES.map((image) => ({
      bytes: demoImageBytes(image),
      request: { fileName: image.fileName, mimeType: 'image/png', labels: ['demo'] },
    })),
    {
      bytes: Buffer.from(
        'Welcome to the sitekit emulator.\nThis file is demo media: upload your own from the console or the SDK.\n',
      ),
      request: { fileName: 'welcome.txt', mimeType: 'text/plain', labels: ['demo'] },
    },
  ];
  for (const { bytes, request } of files) saveFile(context.store, describeBuffer(context, bytes, request), 'owner');
}
