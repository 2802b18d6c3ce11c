import { describe, expect, it } from 'vitest';
import { operations } from '../../../generated/operations.js';
import type { TransformNode } from '../../../src/operation.js';
import {
  codecs,
  dateCodec,
  fieldMaskCodec,
  floatCodec,
  formatMediaRef,
  itemCodec,
  itemDataCodec,
  mediaCodec,
  parseMediaRef,
  toPublic,
  toWire,
  type Codec,
} from '../../../src/wire/index.js';

/** Freezes `value` and everything reachable from it, so any write throws in strict mode. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Runs `fn` on a deep-frozen input and checks the input still deep-equals a snapshot taken before. */
function untouched<T>(input: T, fn: (input: T) => unknown): unknown {
  const snapshot = structuredClone(input);
  const out = fn(deepFreeze(input));
  expect(input).toStrictEqual(snapshot);
  return out;
}

const { toWire: dateToWire, toPublic: dateToPublic } = dateCodec;
const { toWire: floatToWire, toPublic: floatToPublic } = floatCodec;
const { toWire: maskToWire, toPublic: maskToPublic } = fieldMaskCodec;
const { toWire: dataToWire, toPublic: dataToPublic } = itemDataCodec;
const { toWire: itemToWire, toPublic: itemToPublic } = itemCodec;
const both = (codec: Codec) => ({ w: codec.toWire, p: codec.toPublic });
const image = both(mediaCodec('image'));
const video = both(mediaCodec('video'));
const audio = both(mediaCodec('audio'));
const doc = both(mediaCodec('document'));

const ISO = '2024-03-01T12:34:56.789Z';

describe('codec d (date-time)', () => {
  it('ISO string ↔ Date', () => {
    expect(dateToPublic(ISO)).toEqual(new Date(ISO));
    expect(dateToWire(new Date(ISO))).toBe(ISO);
    expect(dateToPublic('2024-03-01T14:34:56+02:00')).toEqual(new Date('2024-03-01T12:34:56Z'));
  });
  it('passes through strings on toWire, and anything that does not parse on toPublic', () => {
    expect(dateToWire(ISO)).toBe(ISO);
    for (const v of ['not a date', 'foo 1', '2024-13-45T00:00:00Z', '', 0, 1700000000000, null, undefined, {}]) {
      expect(dateToPublic(v)).toBe(v);
    }
  });
  it('an invalid Date is left as is instead of throwing', () => {
    const bad = new Date(NaN);
    expect(() => dateToWire(bad)).not.toThrow();
    expect(dateToWire(bad)).toBe(bad);
  });
});

describe('codec f (float)', () => {
  it.each([
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
    [1.5, 1.5],
    [0, 0],
    [-2, -2],
  ])('%s ↔ %j', (pub, wire) => {
    expect(floatToWire(pub)).toStrictEqual(wire);
    expect(floatToPublic(wire)).toStrictEqual(pub);
  });
  it('leaves other values unchanged', () => {
    for (const v of ['1.5', 'nan', 'inf', null, undefined, true]) expect(floatToPublic(v)).toBe(v);
    for (const v of ['NaN', null, undefined]) expect(floatToWire(v)).toBe(v);
  });
});

describe('codec m (field mask)', () => {
  it('string[] ↔ comma-joined string', () => {
    expect(maskToWire(['displayName', 'labels'])).toBe('displayName,labels');
    expect(maskToPublic('displayName,labels')).toEqual(['displayName', 'labels']);
    expect(maskToWire(['profile.nickname'])).toBe('profile.nickname');
  });
  it('empty array ↔ empty string', () => {
    expect(maskToWire([])).toBe('');
    expect(maskToPublic('')).toEqual([]);
  });
  it('leaves other shapes unchanged', () => {
    expect(maskToWire('a,b')).toBe('a,b');
    expect(maskToWire(null)).toBe(null);
    const mixed = ['a', 1];
    expect(maskToWire(mixed)).toBe(mixed);
    expect(maskToPublic(undefined)).toBe(undefined);
  });
  it('through the tree: the mask leaf takes the whole array', () => {
    expect(toWire({ fieldMask: ['a', 'b.c'] }, { fieldMask: 'fieldMask' })).toEqual({ fieldMask: 'a,b.c' });
    expect(toPublic({ fieldMask: 'a,b.c' }, { fieldMask: 'fieldMask' })).toEqual({ fieldMask: ['a', 'b.c'] });
    expect(toWire({ fieldMask: [] }, { fieldMask: 'fieldMask' })).toEqual({ fieldMask: '' });
  });
});

describe('codecs i v a c (media references)', () => {
  const imageRef = 'wix:image://v1/11062b_abc~mv2.jpg/photo.jpg#originWidth=640&originHeight=480';
  const imageWire = {
    id: '11062b_abc~mv2.jpg',
    url: 'https://static.wixstatic.com/media/11062b_abc~mv2.jpg',
    height: 480,
    width: 640,
    filename: 'photo.jpg',
  };

  it('image ↔ object with url and origin size', () => {
    expect(image.w(imageRef)).toStrictEqual(imageWire);
    expect(image.p(imageWire)).toBe(imageRef);
    expect(image.p({ ...imageWire, altText: 'alt' })).toBe(imageRef);
  });

  it('image without dimensions: no fragment, no size keys', () => {
    const ref = 'wix:image://v1/abc.png/abc.png';
    expect(image.p({ id: 'abc.png', filename: 'abc.png' })).toBe(ref);
    expect(image.w(ref)).toStrictEqual({
      id: 'abc.png',
      url: 'https://static.wixstatic.com/media/abc.png',
      filename: 'abc.png',
    });
    expect(image.p({ id: 'abc.png', filename: 'abc.png', width: 10 })).toBe(
      'wix:image://v1/abc.png/abc.png#originWidth=10',
    );
  });

  it('filenames with spaces and unicode are URI-encoded and decoded back', () => {
    const filename = 'my photo – été 日本 #1%.jpg';
    const ref = image.p({ id: 'x~mv2.jpg', filename, width: 1, height: 2 });
    expect(ref).toBe(`wix:image://v1/x~mv2.jpg/${encodeURIComponent(filename)}#originWidth=1&originHeight=2`);
    expect(ref).not.toMatch(/ /);
    expect(image.w(ref)).toMatchObject({ id: 'x~mv2.jpg', filename, width: 1, height: 2 });
  });

  it('video poster from thumbnail', () => {
    const wire = { id: 'v1d', filename: 'clip.mp4', thumbnail: { url: 'v1df000.jpg', width: 1920, height: 1080 } };
    const ref = 'wix:video://v1/v1d/clip.mp4#posterUri=v1df000.jpg&posterWidth=1920&posterHeight=1080';
    expect(video.p(wire)).toBe(ref);
    expect(video.w(ref)).toStrictEqual(wire);
  });

  it('video poster from posters[0] of a full media-API video object (id, else url)', () => {
    const full = {
      id: 'v1d',
      url: 'https://video.wixstatic.com/video/v1d/file',
      filename: 'clip.mp4',
      resolutions: [{ url: 'u', height: 720, width: 1280, format: '720p.mp4' }],
      posters: [
        { id: 'v1df000.jpg', url: 'https://static.wixstatic.com/media/v1df000.jpg', width: 1280, height: 720 },
        { id: 'other.jpg', width: 1, height: 1 },
      ],
    };
    expect(video.p(full)).toBe('wix:video://v1/v1d/clip.mp4#posterUri=v1df000.jpg&posterWidth=1280&posterHeight=720');
    const byUrl = { ...full, posters: [{ url: 'https://x.test/p.jpg?a=1&b=2', width: 3, height: 4 }] };
    const ref = video.p(byUrl) as string;
    expect(ref).toBe(
      'wix:video://v1/v1d/clip.mp4#posterUri=https://x.test/p.jpg?a%3D1%26b%3D2&posterWidth=3&posterHeight=4',
    );
    expect(video.w(ref)).toMatchObject({ thumbnail: { url: 'https://x.test/p.jpg?a=1&b=2', width: 3, height: 4 } });
    expect(video.p({ id: 'v', filename: 'f.mp4', posters: [] })).toBe('wix:video://v1/v/f.mp4');
  });

  it('a poster URL with a + or a space comes back as it was (a fragment reads + as a space)', () => {
    for (const url of ['https://x.test/a+b.jpg?sig=k+q/w==', 'https://x.test/a b.jpg']) {
      const wire = { id: 'v', filename: 'f.mp4', thumbnail: { url, width: 1, height: 2 } };
      const ref = video.p(wire) as string;
      expect(ref, url).not.toMatch(/[+ ]/);
      expect(video.w(ref), url).toStrictEqual(wire);
    }
  });

  it('document and audio', () => {
    expect(doc.p({ id: 'ugd/d.pdf', url: 'https://x.test/d.pdf', filename: 'Annual report.pdf' })).toBe(
      'wix:document://v1/ugd/d.pdf/Annual%20report.pdf',
    );
    expect(doc.w('wix:document://v1/ugd_d.pdf/Annual%20report.pdf')).toStrictEqual({
      id: 'ugd_d.pdf',
      filename: 'Annual report.pdf',
    });
    expect(audio.p({ id: 'mp3_a.mp3', filename: 'song.mp3' })).toBe('wix:audio://v1/mp3_a.mp3/song.mp3');
    expect(audio.w('wix:audio://v1/mp3_a.mp3/song.mp3')).toStrictEqual({ id: 'mp3_a.mp3', filename: 'song.mp3' });
    // Only a video has a poster: a posterUri on another kind is ignored.
    expect(audio.w('wix:audio://v1/mp3_a.mp3/song.mp3#posterUri=p.jpg&posterWidth=1')).toStrictEqual({
      id: 'mp3_a.mp3',
      filename: 'song.mp3',
    });
  });

  it('leaves values it cannot convert unchanged', () => {
    const noId = { url: 'https://x.test/a.png', width: 1 };
    expect(image.p(noId)).toBe(noId);
    expect(image.p('wix:image://v1/a/b')).toBe('wix:image://v1/a/b');
    expect(image.p(null)).toBe(null);
    const obj = { id: 'a' };
    expect(image.w(obj)).toBe(obj);
    expect(image.w('https://static.wixstatic.com/media/a.png')).toBe('https://static.wixstatic.com/media/a.png');
    expect(image.w('wix:video://v1/v/f.mp4')).toBe('wix:video://v1/v/f.mp4'); // another kind
    expect(image.w(undefined)).toBe(undefined);
    expect(image.w('wix:image://v1/a/bad%E0%A4%A.jpg')).toMatchObject({ id: 'a', filename: 'bad%E0%A4%A.jpg' });
  });

  it('an item: the id beside the data fills a missing _id only; no id, no _id', () => {
    expect(itemCodec.toPublic({ id: 'wire', data: { _id: 'data', a: 1 } })).toStrictEqual({ _id: 'data', a: 1 });
    expect(itemCodec.toPublic({ id: 'wire', data: { a: 1 } })).toStrictEqual({ a: 1, _id: 'wire' });
    expect(itemCodec.toPublic({ data: { a: 1 } })).toStrictEqual({ a: 1 });
  });

  it('item data: only an object that is exactly {$date} is a date; nulls pass; a failing getter fails as itself', () => {
    expect(itemDataCodec.toPublic({ a: null, b: { $date: '2024-01-05T00:00:00.000Z', note: 'x' } })).toStrictEqual({
      a: null,
      b: { $date: '2024-01-05T00:00:00.000Z', note: 'x' },
    });
    const boom = new Error('boom');
    const value = {
      get a() {
        throw boom;
      },
    };
    expect(() => itemDataCodec.toWire(value)).toThrow(boom);
  });

  it('an entity filter renames system fields at every depth, both ways', () => {
    const wire = { $and: [{ id: { $eq: 'a' } }, { createdDate: { $gt: 1 } }], title: 'x' };
    const publicForm = { $and: [{ _id: { $eq: 'a' } }, { _createdDate: { $gt: 1 } }], title: 'x' };
    expect(codecs.entityFilter!.toWire(publicForm)).toStrictEqual(wire);
    expect(codecs.entityFilter!.toPublic(wire)).toStrictEqual(publicForm);
  });

  it('dates: only a string that starts as an ISO date is one, extended years included', () => {
    // Date.parse alone reads "Created 2024-01-05" as a date: such text must stay text.
    expect(dateCodec.toPublic('Created 2024-01-05')).toBe('Created 2024-01-05');
    expect(dateCodec.toPublic('Mon 2024-01-05')).toBe('Mon 2024-01-05');
    expect(dateCodec.toPublic('+010000-01-01T00:00:00.000Z')).toEqual(new Date('+010000-01-01T00:00:00.000Z'));
    expect(dateCodec.toPublic('-000001-01-01T00:00:00.000Z')).toEqual(new Date('-000001-01-01T00:00:00.000Z'));
  });

  it('parseMediaRef / formatMediaRef', () => {
    expect(parseMediaRef(imageRef)).toStrictEqual({ kind: 'image', media: imageWire });
    expect(parseMediaRef('wix:video://v1/v/f.mp4')).toStrictEqual({
      kind: 'video',
      media: { id: 'v', filename: 'f.mp4' },
    });
    expect(parseMediaRef('http://example.com')).toBeUndefined();
    // Only a whole string is a reference: text around one is text.
    expect(parseMediaRef(`see ${imageRef}`)).toBeUndefined();
    expect(parseMediaRef(42)).toBeUndefined();
    expect(formatMediaRef('image', imageWire)).toBe(imageRef);
    expect(formatMediaRef('image', {})).toBeUndefined();
  });
});

describe('codec x (item data)', () => {
  it('Dates ↔ {$date} at any depth, including inside arrays', () => {
    const pub = { a: new Date(ISO), list: [{ when: new Date(0) }, [new Date(ISO)], 'text'], n: 1, s: ISO };
    const wire = {
      a: { $date: ISO },
      list: [{ when: { $date: '1970-01-01T00:00:00.000Z' } }, [{ $date: ISO }], 'text'],
      n: 1,
      s: ISO,
    };
    expect(dataToWire(pub)).toStrictEqual(wire);
    expect(dataToPublic(wire)).toStrictEqual(pub);
    expect(dataToWire(new Date(ISO))).toStrictEqual({ $date: ISO });
  });
  it('only objects that are exactly {$date: string} become Dates', () => {
    const keep = [{ $date: ISO, other: 1 }, { $date: 5 }, { $date: 'not a date' }];
    expect(dataToPublic(keep)).toStrictEqual(keep);
  });
  it('does not rename system fields in user data', () => {
    const data = { id: 'x', createdDate: 'y', nested: { id: 'z' } };
    expect(dataToPublic(data)).toBe(data);
  });
});

describe('codec I (data item)', () => {
  it('public item → {id, data: {_id, ...fields}} with $date values', () => {
    const pub = { _id: 'a', _owner: 'o', title: 'T', when: new Date(ISO), tags: [{ at: new Date(0) }] };
    expect(itemToWire(pub)).toStrictEqual({
      id: 'a',
      data: {
        _id: 'a',
        _owner: 'o',
        title: 'T',
        when: { $date: ISO },
        tags: [{ at: { $date: '1970-01-01T00:00:00.000Z' } }],
      },
    });
  });
  it('no id key when _id is absent', () => {
    expect(itemToWire({ title: 'T' })).toStrictEqual({ data: { title: 'T' } });
  });
  it('wire item → decoded data, _id from id when missing', () => {
    expect(
      itemToPublic({ id: 'a', dataCollectionId: 'c', data: { title: 'T', _createdDate: { $date: ISO } } }),
    ).toStrictEqual({ title: 'T', _createdDate: new Date(ISO), _id: 'a' });
    expect(itemToPublic({ id: 'a', dataCollectionId: 'c', data: { _id: 'a', x: 1 } })).toStrictEqual({
      _id: 'a',
      x: 1,
    });
    expect(itemToPublic({ id: 'a' })).toStrictEqual({ _id: 'a' });
  });
  it('non-objects unchanged', () => {
    for (const v of [null, undefined, 'a', 1]) {
      expect(itemToWire(v)).toBe(v);
      expect(itemToPublic(v)).toBe(v);
    }
  });
});

describe('transform trees', () => {
  const entityTree: TransformNode = { collection: { $entity: true, createdDate: 'date' } };

  it('renames system fields at every depth inside an entity, and not outside', () => {
    const wire = {
      id: 'request-level',
      meta: { id: 'outside', createdDate: 'keep' },
      collection: {
        id: 'c1',
        createdDate: ISO,
        a: { b: { c: { id: 'deep', createdDate: 'raw', updatedDate: 'raw2', other: 1 } } },
        list: [{ id: 'in-array' }],
      },
    };
    const pub = {
      id: 'request-level',
      meta: { id: 'outside', createdDate: 'keep' },
      collection: {
        _id: 'c1',
        _createdDate: new Date(ISO),
        a: { b: { c: { _id: 'deep', _createdDate: 'raw', _updatedDate: 'raw2', other: 1 } } },
        list: [{ _id: 'in-array' }],
      },
    };
    expect(toPublic(wire, entityTree)).toStrictEqual(pub);
    expect(toWire(pub, entityTree)).toStrictEqual(wire);
  });

  it('arrays of entities (and arrays of arrays)', () => {
    const tree: TransformNode = { members: { $entity: true, createdDate: 'date', lastLoginDate: 'date' } };
    const wire = {
      members: [
        { id: 'm1', createdDate: ISO },
        { id: 'm2', lastLoginDate: ISO, profile: { id: 'p' } },
      ],
    };
    expect(toPublic(wire, tree)).toStrictEqual({
      members: [
        { _id: 'm1', _createdDate: new Date(ISO) },
        { _id: 'm2', lastLoginDate: new Date(ISO), profile: { _id: 'p' } },
      ],
    });
    expect(toPublic({ members: [[{ id: 'x' }]] }, tree)).toStrictEqual({ members: [[{ _id: 'x' }]] });
  });

  it('`$values` applies to every property of a map; a named key wins over it', () => {
    const tree: TransformNode = {
      additionalData: { $values: { numValue: 'float', dateValue: 'date' }, special: { numValue: 'date' } },
    };
    const wire = { additionalData: { a: { numValue: 'Infinity' }, b: { dateValue: ISO }, special: { numValue: ISO } } };
    expect(toPublic(wire, tree)).toStrictEqual({
      additionalData: {
        a: { numValue: Infinity },
        b: { dateValue: new Date(ISO) },
        special: { numValue: new Date(ISO) },
      },
    });
    expect(toWire({ additionalData: { a: { numValue: -Infinity } } }, tree)).toStrictEqual({
      additionalData: { a: { numValue: '-Infinity' } },
    });
  });

  it('leaf values are not walked further: item data inside an entity keeps its keys', () => {
    const tree: TransformNode = { thing: { $entity: true, payload: 'itemData' } };
    const wire = { thing: { id: 't', payload: { id: 'user', createdDate: { $date: ISO } } } };
    expect(toPublic(wire, tree)).toStrictEqual({
      thing: { _id: 't', payload: { id: 'user', createdDate: new Date(ISO) } },
    });
  });

  it('nested $date in item data in arrays via a filter tree', () => {
    const tree: TransformNode = { query: { filter: 'itemData' } };
    const pub = { query: { filter: { $or: [{ when: { $gt: new Date(ISO) } }, { when: { $in: [new Date(0)] } }] } } };
    const wire = toWire(pub, tree);
    expect(wire).toStrictEqual({
      query: {
        filter: {
          $or: [{ when: { $gt: { $date: ISO } } }, { when: { $in: [{ $date: '1970-01-01T00:00:00.000Z' }] } }],
        },
      },
    });
    expect(toPublic(wire, tree)).toStrictEqual(pub);
  });

  it('passes null, undefined, primitives, Dates and unknown codes through', () => {
    const tree: TransformNode = { a: { $entity: true, b: 'date' }, z: 'newerCode' as unknown as TransformNode };
    for (const v of [null, undefined, 0, 'str', true]) {
      expect(toPublic(v, tree)).toBe(v);
      expect(toWire(v, tree)).toBe(v);
    }
    expect(toPublic({ a: null, z: { id: 1 } }, tree)).toStrictEqual({ a: null, z: { id: 1 } });
    const when = new Date(ISO);
    expect(toPublic({ a: { when } }, tree)).toStrictEqual({ a: { when } });
    expect(toWire({ a: { b: 'not a date' } }, tree)).toStrictEqual({ a: { b: 'not a date' } });
    expect(toPublic({ a: { b: 'not a date' } }, tree)).toStrictEqual({ a: { b: 'not a date' } });
    expect(toPublic({ x: { id: 1 } }, undefined)).toStrictEqual({ x: { id: 1 } });
  });

  it('keys of Object.prototype are plain data, never nodes', () => {
    const tree: TransformNode = { e: { $entity: true } };
    const wire = { e: { constructor: { name: 'n', id: 'i' }, toString: 'x', $entity: { id: 'y' } } };
    // Compared as JSON: an own `constructor` key trips toStrictEqual's own type check.
    expect(JSON.stringify(toPublic(wire, tree))).toBe(
      '{"e":{"constructor":{"name":"n","_id":"i"},"toString":"x","$entity":{"_id":"y"}}}',
    );
  });

  it("in a map, keys of Object.prototype take the map's node like any other key", () => {
    const wire = { constructor: ISO, toString: ISO, hasOwnProperty: ISO, other: ISO };
    const out = toPublic(wire, { $values: 'date' }) as Record<string, unknown>;
    for (const key of Object.keys(wire)) expect(out[key], key).toEqual(new Date(ISO));
  });

  it('a __proto__ key from JSON stays an own key', () => {
    const wire = JSON.parse('{"e": {"__proto__": {"id": "p"}, "id": "i"}}') as unknown;
    const out = toPublic(wire, { e: { $entity: true } }) as { e: object };
    expect(Object.getPrototypeOf(out.e)).toBe(Object.prototype);
    expect(Object.keys(out.e)).toEqual(['__proto__', '_id']);
  });

  it('when both spellings are present, the one in the target form wins', () => {
    const tree: TransformNode = { member: { $entity: true } };
    expect(toWire({ member: { _id: 'from-object', id: 'positional' } }, tree)).toStrictEqual({
      member: { id: 'positional' },
    });
  });

  it('shares unchanged subtrees instead of copying them', () => {
    const untouchedPart = { deep: { x: 1 } };
    const input = { other: untouchedPart, when: ISO };
    const out = toPublic(input, { when: 'date' }) as typeof input;
    expect(out).not.toBe(input);
    expect(out.other).toBe(untouchedPart);
    const noChange = { when: 'not a date' };
    expect(toPublic(noChange, { when: 'date' })).toBe(noChange);
  });
});

describe('round trips: toPublic(toWire(x)) deep-equals x', () => {
  const fileTree = operations.updateFileDescriptor.request!;
  const cases: [string, TransformNode, unknown][] = [
    [
      'collection',
      operations.createDataCollection.request!,
      {
        collection: {
          _id: 'books',
          _createdDate: new Date(ISO),
          fields: [
            { key: 'price', numberRange: { min: -Infinity, max: NaN } },
            { key: 'n', numberRange: { min: 0, max: 10.5 } },
          ],
        },
      },
    ],
    [
      'member update with field mask',
      operations.updateMember.request!,
      {
        member: { _id: 'm', lastLoginDate: new Date(0), profile: { nickname: 'n' } },
        fieldMask: ['profile.nickname', 'x'],
      },
    ],
    [
      'file descriptor with media',
      fileTree,
      {
        file: {
          _id: 'f',
          _updatedDate: new Date(ISO),
          media: {
            image: {
              image: 'wix:image://v1/i~mv2.jpg/a%20b.jpg#originWidth=3&originHeight=4',
              colors: { prominent: { hex: '#fff' } },
            },
            video: 'wix:video://v1/vid/v.mp4#posterUri=p.jpg&posterWidth=1&posterHeight=2',
            document: 'wix:document://v1/d/%E6%97%A5.pdf',
          },
        },
        fieldMask: [],
      },
    ],
    [
      'insert',
      operations.insert.request!,
      { dataCollectionId: 'c', dataItem: { _id: 'a', when: new Date(0), list: [new Date(ISO), { d: new Date(1) }] } },
    ],
    [
      'patch',
      operations.patchDataItem.request!,
      { patch: { fieldModifications: [{ action: 'SET_FIELD', setFieldOptions: { value: new Date(ISO) } }] } },
    ],
  ];

  it.each(cases)('%s (both directions leave their input untouched)', (_, tree, pub) => {
    const wire = untouched(pub, (v) => toWire(v, tree));
    expect(JSON.parse(JSON.stringify(wire))).toStrictEqual(wire); // the wire form is plain JSON
    expect(untouched(wire, (v) => toPublic(v, tree))).toStrictEqual(pub);
  });
});

describe('immutability', () => {
  it('toPublic never writes to a deep-frozen wire value', () => {
    const wire = {
      collection: {
        id: 'c',
        createdDate: ISO,
        fields: [{ key: 'k', numberRange: { min: 'NaN', max: 'Infinity' } }],
        a: { b: { c: { id: 'x' } } },
      },
      referencedCollections: [{ id: 'r', updatedDate: ISO }],
    };
    const out = untouched(wire, (v) => toPublic(v, operations.getDataCollection.response)) as {
      collection: { _id: string };
    };
    expect(out.collection._id).toBe('c');
  });

  it('toWire never writes to a deep-frozen public value', () => {
    const pub = {
      dataItems: [{ _id: 'a', when: new Date(ISO), nested: [{ at: new Date(0) }] }, { title: 'no id' }],
    };
    const out = untouched(pub, (v) => toWire(v, { dataItems: 'item' })) as { dataItems: unknown[] };
    expect(out.dataItems[1]).toStrictEqual({ data: { title: 'no id' } });
  });

  it('codecs on frozen inputs', () => {
    untouched({ a: [{ $date: ISO }] }, dataToPublic);
    untouched({ a: [new Date(ISO)] }, dataToWire);
    untouched({ id: 'i', data: { x: { $date: ISO } } }, itemToPublic);
    untouched({ _id: 'i', x: new Date(ISO) }, itemToWire);
    untouched({ id: 'v', posters: [{ id: 'p', width: 1, height: 2 }] }, video.p);
  });
});

describe('real trees from generated/operations.ts', () => {
  it('getDataCollection.o: _id, Date, Infinity', () => {
    const out = toPublic(
      {
        collection: {
          id: 'books',
          createdDate: ISO,
          fields: [{ key: 'price', numberRange: { min: 0, max: 'Infinity' } }],
        },
      },
      operations.getDataCollection.response,
    );
    expect(out).toStrictEqual({
      collection: {
        _id: 'books',
        _createdDate: new Date(ISO),
        fields: [{ key: 'price', numberRange: { min: 0, max: Infinity } }],
      },
    });
  });

  it('insert.i: item on the wire with $date values', () => {
    expect(
      toWire({ dataCollectionId: 'c', dataItem: { _id: 'a', when: new Date(0) } }, operations.insert.request),
    ).toStrictEqual({
      dataCollectionId: 'c',
      dataItem: { id: 'a', data: { _id: 'a', when: { $date: '1970-01-01T00:00:00.000Z' } } },
    });
  });

  it('insert.o and queryDataItems.o: the SDK sees data with Dates', () => {
    expect(
      toPublic(
        { dataItem: { id: 'a', dataCollectionId: 'c', data: { _id: 'a', when: { $date: ISO } } } },
        operations.insert.response,
      ),
    ).toStrictEqual({ dataItem: { _id: 'a', when: new Date(ISO) } });
    expect(
      toPublic(
        {
          dataItems: [
            { id: 'a', data: { n: 1 } },
            { id: 'b', data: { _id: 'b' } },
          ],
          pagingMetadata: { count: 2 },
        },
        operations.queryDataItems.response,
      ),
    ).toStrictEqual({ dataItems: [{ n: 1, _id: 'a' }, { _id: 'b' }], pagingMetadata: { count: 2 } });
  });

  it('getFileDescriptor.o: entity renames and media references', () => {
    const out = toPublic(
      {
        file: {
          id: 'f1',
          createdDate: ISO,
          media: {
            image: {
              image: {
                id: 'i.jpg',
                url: 'https://static.wixstatic.com/media/i.jpg',
                width: 5,
                height: 6,
                filename: 'a b.jpg',
              },
              faces: [{ x: 1 }],
            },
            video: { id: 'v', filename: 'v.mp4', posters: [{ id: 'p.jpg', width: 7, height: 8 }], resolutions: [] },
          },
        },
      },
      operations.getFileDescriptor.response,
    );
    expect(out).toStrictEqual({
      file: {
        _id: 'f1',
        _createdDate: new Date(ISO),
        media: {
          image: { image: 'wix:image://v1/i.jpg/a%20b.jpg#originWidth=5&originHeight=6', faces: [{ x: 1 }] },
          video: 'wix:video://v1/v/v.mp4#posterUri=p.jpg&posterWidth=7&posterHeight=8',
        },
      },
    });
  });

  it('updateMember.i and login.o', () => {
    expect(
      toWire(
        { member: { _id: 'm', profile: { nickname: 'n' } }, fieldMask: ['profile.nickname'] },
        operations.updateMember.request,
      ),
    ).toStrictEqual({
      member: { id: 'm', profile: { nickname: 'n' } },
      fieldMask: 'profile.nickname',
    });
    expect(
      toPublic(
        {
          identity: { id: 'x', identityProfile: { customFields: [{ name: 'n', value: { numValue: 'NaN' } }] } },
          additionalData: { k: { dateValue: ISO } },
        },
        operations.login.response,
      ),
    ).toStrictEqual({
      identity: { _id: 'x', identityProfile: { customFields: [{ name: 'n', value: { numValue: NaN } }] } },
      additionalData: { k: { dateValue: new Date(ISO) } },
    });
  });
});
