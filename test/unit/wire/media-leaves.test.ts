import { describe, expect, it } from 'vitest';
import { toPublic, toWire } from '../../../src/wire/index.js';

// A fresh module instance per test file: nothing has converted a media leaf before these tests.
describe('media reference codecs are part of the transform engine', () => {
  const ref = 'wix:image://v1/abc.png/abc.png';

  it('a media leaf converts on the first call, with nothing loaded or awaited first', () => {
    expect(toWire(ref, 'image')).toStrictEqual({
      id: 'abc.png',
      url: 'https://static.wixstatic.com/media/abc.png',
      filename: 'abc.png',
    });
    expect(toPublic({ file: { media: { id: 'abc.png', filename: 'abc.png' } } }, { file: { media: 'video' } })).toEqual(
      { file: { media: 'wix:video://v1/abc.png/abc.png' } },
    );
    expect(toPublic({ id: 'abc.png', filename: 'abc.png' }, 'image')).toBe(ref);
  });
});
