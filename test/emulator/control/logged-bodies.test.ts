/**
 * The request log's bodies as rules, case by case: what is kept and where the limits fall, which
 * keys and values are secrets (and which only look alike), how deep a body is written out, and
 * when a text is a form. request-log-bodies.test.ts proves the same through the server.
 */
import { describe, expect, it } from 'vitest';
import { loggedBody } from '../../../emulator/control/logged-bodies.js';
import { MAX_VALUE_DEPTH } from '../../../emulator/untrusted-json.js';

/** The longest body the log keeps, in characters (logged-bodies.ts). */
const MAX_KEPT = 32 * 1024;
const REDACTED = '[redacted]';

/** A JSON body as the log shows it, parsed back. */
const logged = (body: unknown): unknown => JSON.parse(loggedBody(body)!);

/** `value` inside `levels` nested arrays. */
const nestedIn = (levels: number, value: unknown): unknown => {
  let nested = value;
  for (let level = 0; level < levels; level++) nested = [nested];
  return nested;
};

describe('what the log keeps of a body', () => {
  it('nothing for no body, an empty text or null', () => {
    for (const body of [undefined, null, '']) expect(loggedBody(body)).toBeUndefined();
    expect(loggedBody('0')).toBe('0');
  });

  it('a text up to the limit, a note past it', () => {
    const longest = 'x'.repeat(MAX_KEPT);
    expect(loggedBody(longest)).toBe(longest);
    expect(loggedBody(`${longest}x`)).toBe(`(${MAX_KEPT + 1} characters, not kept)`);
    // A JSON text of one string writes out exactly as long as it is.
    const longestJson = `"${'a'.repeat(MAX_KEPT - 2)}"`;
    expect(loggedBody(longestJson)).toBe(longestJson);
  });

  it('a parsed body written out, unless its Content-Length or its written length is past the limit', () => {
    const body = { title: 'x' };
    expect(loggedBody(body, 3 * MAX_KEPT)).toBe('{\n  "title": "x"\n}');
    expect(loggedBody(body, 3 * MAX_KEPT + 1)).toBe(`(${3 * MAX_KEPT + 1} bytes, not kept)`);
    // Past the limit anywhere (a list's string, a key), the whole body is a note.
    for (const tooLong of [{ text: 'a'.repeat(MAX_KEPT) }, ['a'.repeat(MAX_KEPT)], { ['k'.repeat(MAX_KEPT)]: 1 }])
      expect(loggedBody(tooLong)).toBe(`(over ${MAX_KEPT} characters written out, not kept)`);
    // A string is measured before it is redacted: a secret longer than the room left ends the body
    // too. `{\n  "password": ` takes 16 characters.
    expect(logged({ password: 'x'.repeat(MAX_KEPT - 16) })).toEqual({ password: REDACTED });
    expect(loggedBody({ password: 'x'.repeat(MAX_KEPT - 15) })).toBe(
      `(over ${MAX_KEPT} characters written out, not kept)`,
    );
    // An object whose `pipe` is not a function is not a stream.
    expect(logged({ pipe: 'line' })).toEqual({ pipe: 'line' });
  });

  it('a JSON body of one number or boolean, dates as JSON writes them, left-out values left out', () => {
    expect(loggedBody(5)).toBe('5');
    expect(loggedBody(false)).toBe('false');
    const body = {
      at: new Date(0),
      gone: undefined,
      run() {},
      symbol: Symbol('s'),
      empty: {},
      none: [],
      only: { gone: undefined },
      list: [undefined, () => 1, Symbol('s'), null],
    };
    expect(loggedBody(body)).toBe(JSON.stringify(body, null, 2));
    // A toJSON gets the key its value stands under ('' for the whole body), as JSON.stringify gives it.
    const keyed = { toJSON: (key: string) => `under "${key}"`, inner: { toJSON: (key: string) => key } };
    expect(loggedBody(keyed)).toBe(JSON.stringify(keyed, null, 2));
    expect(loggedBody({ inner: keyed.inner })).toBe(JSON.stringify({ inner: keyed.inner }, null, 2));
  });
});

describe('secrets', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl-_x';
  const emulatorSecret = `refresh-token.${'A1_-'.repeat(11)}`;

  it('are the values of secret keys, whatever their type, at any depth and in lists', () => {
    expect(
      logged({
        password: 'hunter2',
        apiKey: 1234,
        captchaToken: true,
        tokens: ['one', 'two'],
        nested: [{ clientSecret: 's' }],
        nothing: null,
        count: 3,
        flag: true,
      }),
    ).toEqual({
      password: REDACTED,
      apiKey: REDACTED,
      captchaToken: REDACTED,
      tokens: [REDACTED, REDACTED],
      nested: [{ clientSecret: REDACTED }],
      nothing: null,
      count: 3,
      flag: true,
    });
    // A secret key's null stays null; an object under it is walked, its own keys judged.
    expect(logged({ password: null, secret: { note: 'plain', token: 't' } })).toEqual({
      password: null,
      secret: { note: 'plain', token: REDACTED },
    });
  });

  it('are under every key the list names, in any case, inside a longer name too', () => {
    const keys = [
      'accessToken',
      'newPassword',
      'clientSecret',
      'passphrase',
      'apikey',
      'API_KEY',
      'Authorization',
      'Set-Cookie',
      'code_verifier',
      'captcha',
    ];
    // One value each: a secret's value found under one key is redacted wherever it is repeated.
    const body = Object.fromEntries(keys.map((key, index) => [key, `value ${index}`]));
    expect(logged(body)).toEqual(Object.fromEntries(keys.map((key) => [key, REDACTED])));
  });

  it("are JWTs (an empty signature too) and the emulator's own secrets, whole or inside a text, under any key", () => {
    expect(
      logged({
        note: jwt,
        unsigned: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
        own: emulatorSecret,
        link: `https://app.example/reset?token=${emulatorSecret}&next=/`,
        page: `<script>const t = "${jwt}";</script>`,
      }),
    ).toEqual({
      note: REDACTED,
      unsigned: REDACTED,
      own: REDACTED,
      link: `https://app.example/reset?token=${REDACTED}&next=/`,
      page: `<script>const t = "${REDACTED}";</script>`,
    });
    expect(loggedBody(`<a href="/reset?t=${emulatorSecret}">reset</a>`)).toBe(
      `<a href="/reset?t=${REDACTED}">reset</a>`,
    );
    // An upload ticket (32 characters) in an upload URL.
    const ticket = `upload.${'b'.repeat(32)}`;
    expect(logged({ uploadUrl: `http://127.0.0.1:4700/_uploads/files/${ticket}` })).toEqual({
      uploadUrl: `http://127.0.0.1:4700/_uploads/files/${REDACTED}`,
    });
  });

  it('are not values that only look alike', () => {
    const plain = {
      title: 'Movies.title',
      // Shorter than the shortest of the emulator's secrets (an upload ticket: 32 characters).
      short: `refresh.${'a'.repeat(31)}`,
      capital: `Refresh.${'a'.repeat(43)}`,
      inWord: `xRefresh.${'a'.repeat(43)}`,
      header: 'eyJ.x.y',
      text: 'plain',
    };
    expect(logged(plain)).toEqual(plain);
    expect(logged(['eyJhbGciOiJIUzI1NiJ9', 7])).toEqual(['eyJhbGciOiJIUzI1NiJ9', 7]);
  });

  it('are emailed verification codes (4 to 8 digits under `code`), not error codes or other numbers', () => {
    expect(logged({ code: '1234' })).toEqual({ code: REDACTED });
    expect(logged({ code: '12345678' })).toEqual({ code: REDACTED });
    for (const kept of [
      { code: '123' },
      { code: '123456789' },
      { code: 'WDE0073' },
      { orderNumber: '123456' },
      { postalCode: '90210' },
      { Code: '1234' },
    ])
      expect(logged(kept)).toEqual(kept);
  });

  it('found under their key are redacted where the body repeats them, when long enough not to be any word', () => {
    expect(logged({ code: '123456', text: 'Your code is 123456.' })).toEqual({
      code: REDACTED,
      text: `Your code is ${REDACTED}.`,
    });
    expect(logged({ password: 'abc', note: 'abc' })).toEqual({ password: REDACTED, note: 'abc' });
  });

  it('holding a quote are not searched for in the text, where they could match its JSON syntax', () => {
    // Written out, the body holds `nickname": "Ada lovelace`: replacing it would break the JSON.
    const body = { password: 'nickname": "Ada lovelace', nickname: 'Ada lovelace' };
    expect(logged(body)).toEqual({ password: REDACTED, nickname: 'Ada lovelace' });
  });

  it('are not searched for in a text shorter than the shortest of them (16 characters)', () => {
    // Shaped like a JWT, but no token is this short: 15 characters kept, 16 redacted.
    expect(logged({ note: 'eyJhbGci.eyJz.a' })).toEqual({ note: 'eyJhbGci.eyJz.a' });
    expect(logged({ note: 'eyJhbGci.eyJz.ab' })).toEqual({ note: REDACTED });
  });
});

describe('how deep a body is written out', () => {
  it(`to ${MAX_VALUE_DEPTH} levels, deeper parts as a note`, () => {
    // The outermost array is level 1: a value inside the deepest written one is still written.
    expect(logged(nestedIn(MAX_VALUE_DEPTH, 7))).toEqual(nestedIn(MAX_VALUE_DEPTH, 7));
    expect(logged(nestedIn(MAX_VALUE_DEPTH, [7]))).toEqual(
      nestedIn(MAX_VALUE_DEPTH, `(nested deeper than ${MAX_VALUE_DEPTH} levels, not kept)`),
    );
    let objects: unknown = { leaf: 1 };
    for (let level = 1; level < MAX_VALUE_DEPTH + 5; level++) objects = { inner: objects };
    expect(loggedBody(objects)).toContain('nested deeper than');
  });
});

describe('a text body', () => {
  it('a form has its secrets redacted; any other text is kept as it is', () => {
    expect(loggedBody('grant=x&client_secret=s')).toBe('grant=x&client_secret=%5Bredacted%5D');
    // Dotted and escaped names (a nested field, a bracket) are form names too.
    expect(loggedBody('user.name=ada&user.password=hunter22')).toBe('user.name=ada&user.password=%5Bredacted%5D');
    expect(loggedBody('a%5B0%5D=1&token=t')).toBe('a%5B0%5D=1&token=%5Bredacted%5D');
    for (const text of ['plain-text-without-spaces', 'just some words', '<a=b>', 'name=value with spaces'])
      expect(loggedBody(text), text).toBe(text);
  });
});
