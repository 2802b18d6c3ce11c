import { describe, expect, it } from 'vitest';
import { loadMediaCodecs, toPublic, toWire } from '../../../src/wire/index.js';

// Each test file has its own module instances, so the media codecs are not loaded yet here.
describe('media reference codecs load on first use', () => {
  const ref = 'wix:image://v1/abc.png/abc.png';

  it('a media leaf converted before loadMediaCodecs() is an SDK bug, not a silent pass-through', () => {
    expect(() => toWire(ref, 'image')).toThrow('sitekit: the image codec is used before loadMediaCodecs() resolved');
    expect(() => toPublic({ id: 'abc.png' }, { file: { media: 'video' } })).not.toThrow();
    expect(() => toPublic({ file: { media: { id: 'abc.png' } } }, { file: { media: 'video' } })).toThrow(
      'the video codec',
    );
  });

  it('after loadMediaCodecs() the leaves convert both ways', async () => {
    await loadMediaCodecs();
    expect(toWire(ref, 'image')).toStrictEqual({
      id: 'abc.png',
      url: 'https://static.wixstatic.com/media/abc.png',
      filename: 'abc.png',
    });
    expect(toPublic({ id: 'abc.png', filename: 'abc.png' }, 'image')).toBe(ref);
  });
});
