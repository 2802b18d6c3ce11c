/**
 * Demo media, written on first start and by `POST /_emulator/reset`: two gradient images made
 * here (real PNGs, so their descriptors carry real sizes) and a text document.
 */
import type { EmulatorContext } from '../../service.js';
import { describeBuffer } from './descriptors.js';
import { saveFile } from './file-store.js';
import { gradientPng } from './png.js';

/** Writes the demo files (inside the seeding transaction). */
export function seedMedia(context: EmulatorContext): void {
  const files = [
    {
      bytes: gradientPng(640, 400, [255, 170, 60], [120, 40, 160]),
      request: { fileName: 'sunrise.png', mimeType: 'image/png', labels: ['demo'] },
    },
    {
      bytes: gradientPng(480, 320, [40, 120, 220], [10, 30, 70]),
      request: { fileName: 'deep-sea.png', mimeType: 'image/png', labels: ['demo'] },
    },
    {
      bytes: Buffer.from(
        'Welcome to the sitekit emulator.\nThis file is demo media: upload your own from the console or the SDK.\n',
      ),
      request: { fileName: 'welcome.txt', mimeType: 'text/plain', labels: ['demo'] },
    },
  ];
  for (const { bytes, request } of files) saveFile(context.store, describeBuffer(context, bytes, request), 'owner');
}
