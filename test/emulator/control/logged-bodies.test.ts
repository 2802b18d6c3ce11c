/**
 * The request log's bodies as rules, case by case: what is kept and where the limits fall, which
 * keys and values are secrets (and which look alike but are not), how deep a body is written out,
 * and when a text is a form. request-log-bodies.test.ts proves the same through the server.
 */
import { describe, expect, it } from 'vitest';
import { BodyNote, bodyText, keepBody, redactSecrets } from '../../../emulator/control/logged-bodies.js';
import { MAX_VALUE_DEPTH } from '../../../emulator/untrusted-json.js';

/** The longest body the log keeps, in characters (logged-bodies.ts). */
const MAX_KEPT = 32 * 1024;
const REDACTED = '[redacted]';

/** `value` inside `levels` nested arrays. */
const nestedIn = (levels: number, value: unknown): unknown => {
  let nested = value;
  for (let level = 0; level < levels; level++) nested = [nested];
  return nested;
};

describe('what the log keeps of a body', () => {
  it('nothing for no body, an empty text or null', () => {
    for (const body of [undefined, null, '']) expect(keepBody(body)).toBeUndefined();
    expect(keepBody('0')).toBe('0');
  });

  it('a text up to the limit, a note past it', () => {
    const longest = 'x'.repeat(MAX_KEPT);
    expect(keepBody(longest)).toBe(longest);
    expect(keepBody(`${longest}x`)).toEqual(new BodyNote(`(${MAX_KEPT + 1} characters, not kept)`));
  });

  it('a parsed body by reference, unless its Content-Length says it is too large to write out', () => {
    const body = { title: 'x' };
    expect(keepBody(body)).toBe(body);
    expect(keepBody(body, 3 * MAX_KEPT)).toBe(body);
    expect(keepBody(body, 3 * MAX_KEPT + 1)).toEqual(new BodyNote(`(${3 * MAX_KEPT + 1} bytes, not kept)`));
    // An object whose `pipe` is not a function is not a stream.
    const notStream = { pipe: 'line' };
    expect(keepBody(notStream)).toBe(notStream);
  });

  it('a JSON body of one number or boolean as its text', () => {
    expect(keepBody(5)).toBe('5');
    expect(keepBody(false)).toBe('false');
  });
});

describe('secrets', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl-_x';
  const emulatorSecret = `refresh-token.${'A1_-'.repeat(11)}`;

  it('are the values of secret keys, whatever their type, at any depth and in lists', () => {
    expect(
      redactSecrets({
        password: 'hunter2',
        apiKey: 1234,
        captchaToken: true,
        tokens: ['one', 'two'],
        nested: [{ clientSecret: 's' }],
        nothing: null,
      }),
    ).toEqual({
      password: REDACTED,
      apiKey: REDACTED,
      captchaToken: REDACTED,
      tokens: [REDACTED, REDACTED],
      nested: [{ clientSecret: REDACTED }],
      nothing: null,
    });
    // A secret key's null stays null; an object under it is walked, its own keys judged.
    expect(redactSecrets({ password: null, secret: { note: 'plain', token: 't' } })).toEqual({
      password: null,
      secret: { note: 'plain', token: REDACTED },
    });
  });

  it("are JWTs (an empty signature too) and the emulator's own secrets, under any key", () => {
    expect(redactSecrets({ note: jwt, unsigned: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', own: emulatorSecret })).toEqual(
      { note: REDACTED, unsigned: REDACTED, own: REDACTED },
    );
  });

  it('are not values that only look alike', () => {
    const plain = {
      title: 'Movies.title',
      short: `refresh.${'a'.repeat(39)}`,
      dotted: `Refresh.${'a'.repeat(43)}`,
      header: 'eyJ.x.y',
      text: 'plain',
    };
    expect(redactSecrets(plain)).toEqual(plain);
    expect(redactSecrets('plain')).toBe('plain');
    expect(redactSecrets(['eyJhbGciOiJIUzI1NiJ9', 7])).toEqual(['eyJhbGciOiJIUzI1NiJ9', 7]);
  });

  it('are emailed verification codes (4 to 8 digits under `code`), not error codes or other numbers', () => {
    expect(redactSecrets({ code: '1234' })).toEqual({ code: REDACTED });
    expect(redactSecrets({ code: '12345678' })).toEqual({ code: REDACTED });
    for (const kept of [{ code: '123' }, { code: '123456789' }, { code: 'WDE0073' }, { orderNumber: '123456' }])
      expect(redactSecrets(kept)).toEqual(kept);
  });
});

describe('how deep a body is written out', () => {
  it(`to ${MAX_VALUE_DEPTH} levels, deeper parts as a note, whatever their type`, () => {
    // The outermost array is level 1: a value inside the deepest written one is still written.
    expect(redactSecrets(nestedIn(MAX_VALUE_DEPTH, 7))).toEqual(nestedIn(MAX_VALUE_DEPTH, 7));
    expect(redactSecrets(nestedIn(MAX_VALUE_DEPTH, [7]))).toEqual(
      nestedIn(MAX_VALUE_DEPTH, `(nested deeper than ${MAX_VALUE_DEPTH} levels, not kept)`),
    );
    let objects: unknown = { leaf: 1 };
    for (let level = 1; level < MAX_VALUE_DEPTH + 5; level++) objects = { inner: objects };
    expect(JSON.stringify(redactSecrets(objects))).toContain('nested deeper than');
  });
});

describe('a kept body as the log shows it', () => {
  it('JSON pretty-printed and redacted, up to the limit', () => {
    expect(bodyText({ password: 'x', n: 1 })).toBe(`{\n  "password": "${REDACTED}",\n  "n": 1\n}`);
    // A JSON text of one string writes out as long as it is.
    const longest = `"${'a'.repeat(MAX_KEPT - 2)}"`;
    expect(bodyText(longest)).toBe(longest);
    expect(bodyText({ text: 'a'.repeat(MAX_KEPT) })).toBe(`(${MAX_KEPT + 16} characters, not kept)`);
  });

  it('a form with its secrets redacted; any other text as it is', () => {
    expect(bodyText('grant=x&client_secret=s')).toBe('grant=x&client_secret=%5Bredacted%5D');
    for (const text of ['plain-text-without-spaces', 'just some words', '<a=b>', 'name=value with spaces'])
      expect(bodyText(text), text).toBe(text);
    expect(bodyText(undefined)).toBeUndefined();
    expect(bodyText(new BodyNote('(a note)'))).toBe('(a note)');
  });
});
