import { describe, it, expect } from 'vitest';
import {
  AbortedError,
  ApplicationError,
  AuthError,
  ElevationRequiredError,
  errorFromResponse,
  HttpError,
  isAbortedError,
  isApplicationError,
  isAuthError,
  isElevationRequiredError,
  isHttpError,
  isNetworkError,
  isRequestError,
  isSiteKitError,
  isTimeoutError,
  isValidationError,
  NetworkError,
  RequestError,
  WebhookError,
  SiteKitError,
  SYSTEM_ERROR,
  TimeoutError,
  ValidationError,
} from '../../../src/errors/index.js';

const BRAND = Symbol.for('sitekit.error');

/** A message is "one line" when it has no line breaks, tabs or runs of spaces, and is capped. */
function expectOneLine(message: string): void {
  expect(message).not.toMatch(/[\r\n\t\u2028\u2029]/);
  expect(message).not.toMatch(/ {2}/);
  expect(message).toBe(message.trim());
  expect(message.length).toBeLessThanOrEqual(400);
}

const MULTI_LINE = 'first line\n\n   second\tline\r\nthird';
const HUGE = `${'x'.repeat(5000)}\n${'y'.repeat(5000)}`;

// One factory per class, so the shared behaviour is asserted for every class alike.
const factories = {
  SiteKitError: (message: string, requestId?: string) =>
    new SiteKitError(message, { code: 'SOME_CODE', status: 418, requestId, details: { a: 1 } }),
  ValidationError: (message: string, requestId?: string) =>
    new ValidationError({
      violations: [{ field: 'a', description: message }],
      status: 400,
      requestId,
      details: { a: 1 },
    }),
  ApplicationError: (message: string, requestId?: string) =>
    new ApplicationError(message, { code: 'WDE0073', status: 404, requestId, details: { a: 1 } }),
  HttpError: (message: string, requestId?: string) =>
    new HttpError({ status: 409, statusText: 'Conflict', serverMessage: message, requestId, details: { a: 1 } }),
  NetworkError: (message: string, requestId?: string) =>
    new NetworkError({ cause: new TypeError(message), status: 0, requestId, details: { a: 1 } }),
  TimeoutError: (_message: string, requestId?: string) =>
    new TimeoutError(1500, { status: 0, requestId, details: { a: 1 } }),
  AbortedError: (message: string, requestId?: string) =>
    new AbortedError({ cause: message, status: 0, requestId, details: { a: 1 } }),
  ElevationRequiredError: (message: string, requestId?: string) =>
    new ElevationRequiredError(message, { status: 0, requestId, details: { a: 1 } }),
  RequestError: (message: string, requestId?: string) =>
    new RequestError(message, { field: 'limit', status: 0, requestId, details: { a: 1 } }),
  AuthError: (message: string, requestId?: string) =>
    new AuthError(message, { code: 'OAUTH_TIMEOUT', status: 0, requestId, details: { a: 1 } }),
} satisfies Record<string, (message: string, requestId?: string) => SiteKitError>;

describe('every error class', () => {
  for (const [name, make] of Object.entries(factories)) {
    describe(name, () => {
      it('has its name, is an Error and a SiteKitError, keeps code/status/requestId/details', () => {
        const error = make('boom', 'req-1');
        expect(error).toBeInstanceOf(Error);
        expect(error).toBeInstanceOf(SiteKitError);
        expect(error.name).toBe(name);
        expect(typeof error.code).toBe('string');
        expect(error.code).not.toBe('');
        expect(typeof error.status).toBe('number');
        expect(error.requestId).toBe('req-1');
        expect(error.details).toEqual({ a: 1 });
        expect(String(error).startsWith(`${name}: `)).toBe(true);
        expect(error.stack?.startsWith(`${name}: `)).toBe(true);
      });

      it('appends the request id exactly once', () => {
        const error = make('boom', 'req-1');
        expect(error.message.endsWith(' (request id: req-1)')).toBe(true);
        expect(error.message.split('request id').length).toBe(2);
        expect(make('boom').message).not.toContain('request id');
      });

      it('keeps the message to one readable line for multi-line or huge input', () => {
        for (const input of [MULTI_LINE, HUGE]) {
          expectOneLine(make(input).message);
          const withId = make(input, 'req-9').message;
          expectOneLine(withId);
          expect(withId.endsWith(' (request id: req-9)')).toBe(true);
        }
      });

      it('carries the brand, non-enumerably', () => {
        const error = make('boom') as unknown as Record<symbol, unknown>;
        expect(error[BRAND]).toBe(true);
        expect(Object.keys(error)).not.toContain(BRAND);
        expect(Object.getOwnPropertyDescriptor(error, BRAND)?.enumerable).toBe(false);
      });
    });
  }
});

describe('SiteKitError', () => {
  it('collapses whitespace and caps long messages with an ellipsis', () => {
    expect(new SiteKitError(MULTI_LINE, { code: 'X' }).message).toBe('first line second line third');
    const long = new SiteKitError(HUGE, { code: 'X' }).message;
    expect(long.length).toBe(300);
    expect(long.endsWith('…')).toBe(true);
  });

  it('keeps the request id when the message is capped', () => {
    const error = new SiteKitError(HUGE, { code: 'X', requestId: 'abc' });
    expect(error.message.endsWith('… (request id: abc)')).toBe(true);
  });

  it('does not repeat a request id already present in a re-wrapped message', () => {
    const inner = new SiteKitError('inner failure', { code: 'X', requestId: 'abc' });
    const outer = new SiteKitError(inner.message, { code: 'Y', requestId: 'abc', cause: inner });
    expect(outer.message).toBe('inner failure (request id: abc)');
    expect(outer.cause).toBe(inner);
  });

  it('falls back to the code for an empty message and ignores a blank request id', () => {
    const error = new SiteKitError('  \n ', { code: 'EMPTY', requestId: '  ' });
    expect(error.message).toBe('EMPTY');
    expect(error.requestId).toBeUndefined();
  });

  it('does not split a surrogate pair when capping', () => {
    const message = new SiteKitError(`${'a'.repeat(298)}😀😀😀`, { code: 'X' }).message;
    expect(message).toBe(`${'a'.repeat(298)}…`);
  });

  it('sets cause only when given', () => {
    expect('cause' in new SiteKitError('m', { code: 'X' })).toBe(false);
    const cause = new Error('root');
    expect(new SiteKitError('m', { code: 'X', cause }).cause).toBe(cause);
  });

  it('keeps instanceof through a subclass made by user code', () => {
    class Custom extends SiteKitError {
      override name = 'Custom';
    }
    const error = new Custom('m', { code: 'C' });
    expect(error).toBeInstanceOf(Custom);
    expect(Object.getPrototypeOf(error)).toBe(Custom.prototype);
    expect(isSiteKitError(error)).toBe(true);
  });
});

describe('ValidationError', () => {
  it('has code INVALID_ARGUMENT and sorts violations by field with plain < ordering', () => {
    const violations = [
      { field: 'b', description: 'second' },
      { field: 'a.z', description: 'first' },
      { field: 'B', description: 'upper case sorts before lower case' },
    ];
    const error = new ValidationError({ violations, status: 400 });
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.violations.map((v) => v.field)).toEqual(['B', 'a.z', 'b']);
    expect(error.message).toBe('INVALID_ARGUMENT: B: upper case sorts before lower case, a.z: first, b: second');
    // The caller's array is left alone.
    expect(violations[0]?.field).toBe('b');
  });

  it('uses the server message when there are no violations', () => {
    expect(new ValidationError({ violations: [], message: 'bad input' }).message).toBe('bad input');
    expect(new ValidationError({ violations: [] }).message).toBe('INVALID_ARGUMENT');
  });
});

describe('ApplicationError', () => {
  it('carries the server code, description and data', () => {
    const error = new ApplicationError('Collection not found', {
      code: 'WDE0073',
      status: 404,
      description: 'no such collection',
      data: { collectionId: 'todos' },
    });
    expect(error.code).toBe('WDE0073');
    expect(error.description).toBe('no such collection');
    expect(error.data).toEqual({ collectionId: 'todos' });
    expect(error.message).toBe('Collection not found');
  });
});

describe('HttpError', () => {
  it('codes a 4xx from the status text, or the table when the text is empty', () => {
    expect(new HttpError({ status: 404, statusText: 'Not Found' }).code).toBe('NOT_FOUND');
    const empty = new HttpError({ status: 404, statusText: '' });
    expect(empty.code).toBe('NOT_FOUND');
    expect(empty.message).toBe('404 Not Found');
    expect(new HttpError({ status: 409 }).code).toBe('CONFLICT');
    expect(new HttpError({ status: 429 }).code).toBe('TOO_MANY_REQUESTS');
    expect(new HttpError({ status: 418 }).code).toBe('IM_A_TEAPOT');
    expect(new HttpError({ status: 499, statusText: 'Client Closed Request' }).code).toBe('CLIENT_CLOSED_REQUEST');
  });

  it('falls back to HTTP_<status> for an unknown 4xx without status text', () => {
    const error = new HttpError({ status: 499 });
    expect(error.code).toBe('HTTP_499');
    expect(error.message).toBe('499');
  });

  it('adds the server message after the status on a 4xx', () => {
    const error = new HttpError({ status: 403, serverMessage: 'not your site' });
    expect(error.message).toBe('403 Forbidden: not your site');
  });

  it('reports every 5xx as a system error after its status, hiding the server text', () => {
    const error = new HttpError({ status: 502, statusText: 'Bad Gateway', serverMessage: '<html>' });
    expect(error.code).toBe(SYSTEM_ERROR);
    expect(error.message).toBe('502 Bad Gateway: System error occurred');
    expect(error.status).toBe(502);
  });

  it('accepts an explicit message and code', () => {
    const error = new HttpError({ status: 200, message: 'Unreadable response body', code: 'SYSTEM_ERROR' });
    expect(error.message).toBe('Unreadable response body');
    expect(error.code).toBe('SYSTEM_ERROR');
  });
});

describe('NetworkError', () => {
  it('names the underlying failure, including the nested cause Node hides it in', () => {
    const cause = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' }),
    });
    const error = new NetworkError({ cause });
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('Network request failed: TypeError: fetch failed (connect ECONNREFUSED 127.0.0.1:3000)');
  });

  it('never prints an arbitrary object', () => {
    expect(new NetworkError({ cause: { weird: true } }).message).toBe('Network request failed');
    expect(new NetworkError({ cause: 'offline' }).message).toBe('Network request failed: offline');
  });
});

describe('TimeoutError', () => {
  it('says how long it waited', () => {
    const error = new TimeoutError(30000);
    expect(error.code).toBe('TIMEOUT');
    expect(error.timeoutMs).toBe(30000);
    expect(error.message).toBe('Request timed out after 30000 ms');
  });
});

describe('AbortedError', () => {
  it('keeps the signal reason as cause', () => {
    const controller = new AbortController();
    controller.abort();
    const error = new AbortedError({ cause: controller.signal.reason });
    expect(error.code).toBe('ABORTED');
    expect(error.cause).toBe(controller.signal.reason);
    expect(error.message).toBe('Request was aborted');
  });

  it('shows a reason the caller chose', () => {
    const controller = new AbortController();
    controller.abort('user left the page');
    const error = new AbortedError({ cause: controller.signal.reason });
    expect(error.message).toBe('Request was aborted: user left the page');
  });
});

describe('ElevationRequiredError', () => {
  it('names the operation', () => {
    const error = new ElevationRequiredError('collections.create');
    expect(error.code).toBe('ELEVATION_REQUIRED');
    expect(error.operation).toBe('collections.create');
    expect(error.message).toBe('collections.create requires an elevated client (ApiKeyStrategy)');
  });
});

describe('WebhookError', () => {
  it.each([
    ['INVALID_SIGNATURE', 'webhooks: invalid signature'],
    ['EXPIRED', 'webhooks: expired'],
    ['UNEXPECTED_EVENT', 'webhooks: unexpected event'],
    ['MALFORMED_EVENT', 'webhooks: malformed event'],
    ['NO_PUBLIC_KEY', 'webhooks: no public key'],
  ] as const)('%s says its code in words: %s, the detail after it', (code, message) => {
    expect(new WebhookError(code)).toMatchObject({ code, message });
    expect(new WebhookError(code, 'why').message).toBe(`${message} (why)`);
  });
});

describe('RequestError', () => {
  it('has code INVALID_REQUEST and the field at fault', () => {
    const error = new RequestError('limit must be positive', { field: 'limit' });
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.field).toBe('limit');
    expect(error.message).toBe('limit must be positive');
    expect(new RequestError('missing').field).toBeUndefined();
  });
});

describe('AuthError', () => {
  it('keeps the caller code and message verbatim', () => {
    const error = new AuthError('OAuth flow timed out', { code: 'OAUTH_TIMEOUT' });
    expect(error.code).toBe('OAUTH_TIMEOUT');
    expect(error.message).toBe('OAuth flow timed out');
  });
});

describe('guards', () => {
  const guards = {
    ValidationError: isValidationError,
    ApplicationError: isApplicationError,
    HttpError: isHttpError,
    NetworkError: isNetworkError,
    TimeoutError: isTimeoutError,
    AbortedError: isAbortedError,
    ElevationRequiredError: isElevationRequiredError,
    RequestError: isRequestError,
    AuthError: isAuthError,
  } satisfies Record<Exclude<keyof typeof factories, 'SiteKitError'>, (e: unknown) => boolean>;

  it('isSiteKitError accepts every class and rejects everything else', () => {
    for (const make of Object.values(factories)) expect(isSiteKitError(make('m'))).toBe(true);
    for (const other of [new Error('x'), new TypeError('x'), { code: 'X' }, 'x', null, undefined, 0]) {
      expect(isSiteKitError(other)).toBe(false);
    }
  });

  for (const [name, guard] of Object.entries(guards)) {
    it(`is${name} accepts its own class only`, () => {
      for (const [other, make] of Object.entries(factories)) {
        expect(guard(make('m'))).toBe(other === name);
      }
      expect(guard(new Error('x'))).toBe(false);
      expect(guard(null)).toBe(false);
      expect(guard({ name })).toBe(false);
    });

    it(`is${name} recognises an error from another copy of the package (brand + name)`, () => {
      // A class from "another copy": unrelated prototype chain, same brand and name.
      class Foreign extends Error {
        override name = name;
        readonly code = 'FOREIGN';
        constructor() {
          super('from the other copy');
          Object.defineProperty(this, BRAND, { value: true });
        }
      }
      const foreign = new Foreign();
      expect(foreign instanceof SiteKitError).toBe(false);
      expect(guard(foreign)).toBe(true);
      expect(isSiteKitError(foreign)).toBe(true);
      // Same brand, another name: not this kind.
      const otherKind = Object.assign(new Error('x'), { name: 'SomethingElse', [BRAND]: true });
      expect(guard(otherKind)).toBe(false);
      // Same name, no brand: not a sitekit error at all.
      expect(guard(Object.assign(new Error('x'), { name }))).toBe(false);
    });
  }

  it('accepts a user subclass through instanceof even with another name', () => {
    class Mine extends ValidationError {
      override name = 'MyValidationError';
    }
    expect(isValidationError(new Mine({ violations: [] }))).toBe(true);
  });
});

describe('errorFromResponse', () => {
  const json = (value: unknown) => JSON.stringify(value);

  it('maps field violations to a ValidationError sorted by field, keeping the body', () => {
    const body = {
      message: 'invalid request',
      details: {
        validationError: {
          fieldViolations: [
            { field: 'item.title', description: 'must not be empty', violatedRule: 'REQUIRED_FIELD' },
            { field: 'collection.id', description: 'is too long', violatedRule: 'MAX_LENGTH', data: { max: 256 } },
          ],
        },
        applicationError: { code: 'IGNORED', description: 'validation wins' },
      },
    };
    const error = errorFromResponse({ status: 400, statusText: 'Bad Request', body: json(body), requestId: 'r-1' });
    expect(error).toBeInstanceOf(ValidationError);
    if (!isValidationError(error)) throw new Error('unreachable');
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.status).toBe(400);
    expect(error.requestId).toBe('r-1');
    expect(error.violations).toEqual([
      { field: 'collection.id', description: 'is too long' },
      { field: 'item.title', description: 'must not be empty' },
    ]);
    expect(error.message).toBe(
      'INVALID_ARGUMENT: collection.id: is too long, item.title: must not be empty (request id: r-1)',
    );
    expect(error.details).toEqual(body);
  });

  it('handles a validationError without applicationError (the official SDK crashes here)', () => {
    const body = json({ details: { validationError: { fieldViolations: [{ field: 'x', description: 'bad' }] } } });
    const error = errorFromResponse({ status: 400, body });
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toBe('INVALID_ARGUMENT: x: bad');
  });

  it('skips malformed violations without failing', () => {
    const body = json({
      message: 'invalid',
      details: {
        validationError: {
          fieldViolations: [
            null,
            'text',
            42,
            { field: 7 },
            { description: 'whole request is wrong' },
            { field: 'b', description: 'bad' },
          ],
        },
      },
    });
    const error = errorFromResponse({ status: 400, body });
    if (!isValidationError(error)) throw new Error('expected a ValidationError');
    expect(error.violations).toEqual([
      { field: '', description: 'whole request is wrong' },
      { field: 'b', description: 'bad' },
    ]);
  });

  it('keeps a ValidationError with the server message when every violation is malformed', () => {
    const body = json({ message: 'invalid', details: { validationError: { fieldViolations: [null, {}] } } });
    const error = errorFromResponse({ status: 400, body });
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toBe('invalid');
  });

  it('does not treat an empty or non-array fieldViolations as a validation error', () => {
    for (const fieldViolations of [[], 'nope', { field: 'x' }]) {
      const error = errorFromResponse({
        status: 400,
        body: json({ details: { validationError: { fieldViolations } } }),
      });
      expect(isHttpError(error)).toBe(true);
      expect(error.code).toBe('BAD_REQUEST');
    }
  });

  it('maps an applicationError with code, description and data', () => {
    const body = {
      message: 'Collection not found',
      details: { applicationError: { code: 'WDE0073', description: 'no such collection', data: { id: 'todos' } } },
    };
    const error = errorFromResponse({ status: 404, statusText: 'Not Found', body: json(body), requestId: 'r-2' });
    if (!isApplicationError(error)) throw new Error('expected an ApplicationError');
    expect(error.code).toBe('WDE0073');
    expect(error.status).toBe(404);
    expect(error.requestId).toBe('r-2');
    expect(error.description).toBe('no such collection');
    expect(error.data).toEqual({ id: 'todos' });
    // Status, the server's code, its message and its description: all of them survive.
    expect(error.message).toBe('404 Not Found (WDE0073: Collection not found; no such collection) (request id: r-2)');
    expect(error.details).toEqual(body);
  });

  it('shows the description alone when the server sent no message, and the status alone without either', () => {
    const withDescription = errorFromResponse({
      status: 409,
      body: json({ details: { applicationError: { code: 'DUP', description: 'already exists' } } }),
    });
    expect(withDescription.message).toBe('409 Conflict (DUP: already exists)');
    const same = errorFromResponse({
      status: 409,
      body: json({
        message: 'already exists',
        details: { applicationError: { code: 'DUP', description: 'already exists' } },
      }),
    });
    expect(same.message).toBe('409 Conflict (DUP: already exists)');
    const bare = errorFromResponse({ status: 409, statusText: '', body: json({ details: { applicationError: {} } }) });
    expect(isApplicationError(bare)).toBe(true);
    expect(bare.message).toBe('409 Conflict (CONFLICT)');
    // Without a code, the upper-snake status text.
    expect(bare.code).toBe('CONFLICT');
  });

  it('turns a numeric application code (login codes) into a string', () => {
    const error = errorFromResponse({
      status: 400,
      body: json({ message: 'missing captcha token', details: { applicationError: { code: -19971 } } }),
    });
    expect(error.code).toBe('-19971');
  });

  it('maps 404 with an empty status text to NOT_FOUND', () => {
    const error = errorFromResponse({ status: 404, statusText: '', body: '' });
    expect(isHttpError(error)).toBe(true);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe('404 Not Found');
    expect(error.details).toBeUndefined();
  });

  it('maps 429 to TOO_MANY_REQUESTS with the server message', () => {
    const error = errorFromResponse({ status: 429, body: json({ message: 'slow down' }), requestId: 'r-3' });
    expect(error.code).toBe('TOO_MANY_REQUESTS');
    expect(error.message).toBe('429 Too Many Requests: slow down (request id: r-3)');
    expect(error.details).toEqual({ message: 'slow down' });
  });

  it('ignores a non-string body message', () => {
    const error = errorFromResponse({ status: 403, body: json({ message: { nested: 'json' } }) });
    expect(error.message).toBe('403 Forbidden');
  });

  it('maps an HTML 502 page to SYSTEM_ERROR with the request id in the message', () => {
    const body = '<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>';
    const error = errorFromResponse({ status: 502, statusText: 'Bad Gateway', body, requestId: 'r-502' });
    expect(isHttpError(error)).toBe(true);
    expect(error.code).toBe('SYSTEM_ERROR');
    expect(error.status).toBe(502);
    expect(error.requestId).toBe('r-502');
    expect(error.message).toBe('502 Bad Gateway: System error occurred (request id: r-502)');
    expect(error.details).toBeUndefined();
  });

  it('maps a truncated JSON 400 to BAD_REQUEST', () => {
    const error = errorFromResponse({ status: 400, statusText: '', body: '{"message": "broken", "details": {"valid' });
    expect(isHttpError(error)).toBe(true);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('400 Bad Request');
    expect(error.details).toBeUndefined();
  });

  it('survives a JSON null body and other non-object JSON', () => {
    const nullBody = errorFromResponse({ status: 400, body: 'null' });
    expect(nullBody.code).toBe('BAD_REQUEST');
    expect(nullBody.details).toBeUndefined();
    for (const body of ['42', '"text"', '[1,2]', 'true']) {
      const error = errorFromResponse({ status: 422, body });
      expect(error.code).toBe('UNPROCESSABLE_ENTITY');
      expect(error.details).toEqual(JSON.parse(body));
    }
    expect(errorFromResponse({ status: 500, body: 'null' }).code).toBe('SYSTEM_ERROR');
  });

  it('never throws on odd details shapes', () => {
    const bodies = [
      json({ details: null }),
      json({ details: 'text' }),
      json({ details: { validationError: null, applicationError: null } }),
      json({ details: { applicationError: 'text' } }),
      json({ details: { validationError: { fieldViolations: null } } }),
    ];
    for (const body of bodies) {
      const error = errorFromResponse({ status: 400, body });
      expect(isHttpError(error)).toBe(true);
      expect(error.code).toBe('BAD_REQUEST');
    }
  });

  it('keeps the server code and message of a 5xx that carries the platform error', () => {
    const body = { message: 'maintenance', details: { applicationError: { code: 'WDE0001', description: 'down' } } };
    const error = errorFromResponse({
      status: 503,
      statusText: 'Service Unavailable',
      body: json(body),
      requestId: 'r-4',
    });
    expect(isApplicationError(error)).toBe(true);
    expect(error.code).toBe('WDE0001');
    expect(error.status).toBe(503);
    expect(error.message).toBe('503 Service Unavailable (WDE0001: maintenance; down) (request id: r-4)');
    expect(error.details).toEqual(body);
    // Without a code of its own, a 5xx stays a system error.
    expect(errorFromResponse({ status: 500, body: json({ details: { applicationError: {} } }) }).code).toBe(
      'SYSTEM_ERROR',
    );
  });

  it('names the operation at the start of the message and keeps Retry-After', () => {
    const body = {
      message: 'Forbidden',
      details: { applicationError: { code: 'WDE0027', description: 'The current user does not have permissions' } },
    };
    const error = errorFromResponse({
      status: 403,
      statusText: 'Forbidden',
      body: json(body),
      operation: 'getDataCollection',
    });
    expect(error.message).toBe(
      'getDataCollection: 403 Forbidden (WDE0027: Forbidden; The current user does not have permissions)',
    );
    expect(error.operation).toBe('getDataCollection');
    const limited = errorFromResponse({ status: 429, body: '', operation: 'queryDataItems', retryAfterMs: 120_000 });
    expect(limited.message).toBe('queryDataItems: 429 Too Many Requests');
    expect(limited.retryAfterMs).toBe(120_000);
    expect(errorFromResponse({ status: 429, body: '' }).retryAfterMs).toBeUndefined();
  });

  it('treats an unexpected status as a system error', () => {
    for (const status of [0, 302, 600]) {
      const error = errorFromResponse({ status, body: '' });
      expect(error.code).toBe('SYSTEM_ERROR');
      expect(error.status).toBe(status);
    }
  });

  it('puts the request id on every error and treats null as unknown', () => {
    const bodies = [
      json({ details: { validationError: { fieldViolations: [{ field: 'a', description: 'b' }] } } }),
      json({ details: { applicationError: { code: 'C' } } }),
      '',
    ];
    for (const status of [400, 404, 500]) {
      for (const body of bodies) {
        expect(errorFromResponse({ status, body, requestId: 'id-7' }).requestId).toBe('id-7');
        const anonymous = errorFromResponse({ status, body, requestId: null });
        expect(anonymous.requestId).toBeUndefined();
        expect(anonymous.message).not.toContain('request id');
      }
    }
  });

  it('keeps a huge multi-line server message to one capped line', () => {
    const error = errorFromResponse({ status: 400, body: json({ message: HUGE }), requestId: 'r-5' });
    expectOneLine(error.message);
    expect(error.message.endsWith('… (request id: r-5)')).toBe(true);
  });
});
