/** Direct login and registration: wire bodies, server states → outcomes, error codes, verification, recovery. */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CAPTCHA_INVISIBLE_SITE_KEY,
  CAPTCHA_VISIBLE_SITE_KEY,
  LoginState,
  OAuthStrategy,
  TokenRole,
  type Tokens,
} from '../../../src/auth/index.js';
import { createClient } from '../../../src/client.js';
import { AbortedError, ApplicationError, AuthError, HttpError, NetworkError } from '../../../src/errors/index.js';

const BASE = 'https://api.test';
const IAM = '/_api/iam/authentication/v2';
const now = () => Math.floor(Date.now() / 1000);
const visitor: Tokens = {
  accessToken: { value: 'V', expiresAt: now() + 3600 },
  refreshToken: { value: 'VR', role: 'visitor' },
};

const make = () => {
  const auth = OAuthStrategy({ clientId: 'c', tokens: visitor });
  createClient({ auth, baseUrl: BASE, retry: { random: () => 0 } });
  return auth;
};
/** Answers `path` once, recording the body; the call must carry the visitor token. */
const answer = (path: string, status: number, reply: unknown, headers: Record<string, string> = {}) => {
  const seen: { body?: unknown } = {};
  nock(BASE)
    .post(path, (b) => ((seen.body = b), true))
    .matchHeader('authorization', 'V')
    .reply(status, reply as nock.Body, headers);
  return seen;
};
const appError = (code: number | string, message = 'server says no', description?: string) => ({
  message,
  details: { applicationError: { code, description } },
});

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('LoginState and constants', () => {
  it('has the seven outcomes, each its own name; the token roles; the captcha site keys', () => {
    expect(LoginState).toEqual({
      INITIAL: 'INITIAL',
      SUCCESS: 'SUCCESS',
      FAILURE: 'FAILURE',
      EMAIL_VERIFICATION_REQUIRED: 'EMAIL_VERIFICATION_REQUIRED',
      OWNER_APPROVAL_REQUIRED: 'OWNER_APPROVAL_REQUIRED',
      USER_CAPTCHA_REQUIRED: 'USER_CAPTCHA_REQUIRED',
      SILENT_CAPTCHA_REQUIRED: 'SILENT_CAPTCHA_REQUIRED',
    });
    expect(TokenRole).toEqual({ NONE: 'none', VISITOR: 'visitor', MEMBER: 'member' });
    expect(CAPTCHA_INVISIBLE_SITE_KEY).toBe('6LdoPaUfAAAAAJphvHoUoOob7mx0KDlXyXlgrx5v');
    expect(CAPTCHA_VISIBLE_SITE_KEY).toBe('6Ld0J8IcAAAAANyrnxzrRlX1xrrdXsOmsepUYosy');
    const auth = make();
    expect(auth.captchaInvisibleSiteKey).toBe(CAPTCHA_INVISIBLE_SITE_KEY);
    expect(auth.captchaVisibleSiteKey).toBe(CAPTCHA_VISIBLE_SITE_KEY);
  });
});

describe('login', () => {
  it('sends {loginId: {email}, password} with the visitor token; SUCCESS carries the session token', async () => {
    const auth = make();
    const seen = answer(`${IAM}/login`, 200, { state: 'SUCCESS', sessionToken: 'ST', identity: { id: 'i' } });
    expect(await auth.login({ email: 'a@b.c', password: 'pw' })).toEqual({
      loginState: 'SUCCESS',
      data: { sessionToken: 'ST' },
    });
    expect(seen.body).toEqual({ loginId: { email: 'a@b.c' }, password: 'pw' });
  });

  it('maps every server state to its outcome', async () => {
    const auth = make();
    const cases: [unknown, unknown][] = [
      [{ state: 'REQUIRE_OWNER_APPROVAL' }, { loginState: 'OWNER_APPROVAL_REQUIRED' }],
      [
        { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'T' },
        { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'T' } },
      ],
      // The spec's outcome, with what the server said: its state and the identity's status.
      [
        { state: 'STATUS_CHECK', identity: { status: { name: 'BLOCKED', reasons: [] } } },
        { loginState: 'FAILURE', error: 'Unknown _state', errorCode: 'STATUS_CHECK', identityStatus: 'BLOCKED' },
      ],
      [{ state: 'STATUS_CHECK' }, { loginState: 'FAILURE', error: 'Unknown _state', errorCode: 'STATUS_CHECK' }],
      [
        { state: 'UNKNOWN_STATE', identity: { status: null } },
        { loginState: 'FAILURE', error: 'Unknown _state', errorCode: 'UNKNOWN_STATE' },
      ],
      [{ state: 42 }, { loginState: 'FAILURE', error: 'Unknown _state' }],
      [{}, { loginState: 'FAILURE', error: 'Unknown _state' }],
      ['', { loginState: 'FAILURE', error: 'Unknown _state' }],
    ];
    for (const [reply, outcome] of cases) {
      answer(`${IAM}/login`, 200, reply);
      expect(await auth.login({ email: 'a@b.c', password: 'pw' })).toEqual(outcome);
    }
  });

  it('sends captcha tokens as [{Recaptcha}] / [{InvisibleRecaptcha}] (both spellings accepted)', async () => {
    const auth = make();
    let seen = answer(`${IAM}/login`, 200, { state: 'SUCCESS', sessionToken: 'x' });
    await auth.login({ email: 'e', password: 'p', captchaTokens: { recaptcha: 'R' } });
    expect(seen.body).toEqual({ loginId: { email: 'e' }, password: 'p', captchaTokens: [{ Recaptcha: 'R' }] });
    seen = answer(`${IAM}/login`, 200, { state: 'SUCCESS', sessionToken: 'x' });
    await auth.login({ email: 'e', password: 'p', captchaTokens: { invisibleRecaptchaToken: 'I' } });
    expect(seen.body).toEqual({ loginId: { email: 'e' }, password: 'p', captchaTokens: [{ InvisibleRecaptcha: 'I' }] });
    seen = answer(`${IAM}/login`, 200, { state: 'SUCCESS', sessionToken: 'x' });
    await auth.login({ email: 'e', password: 'p', captchaTokens: {} });
    expect(seen.body).toEqual({ loginId: { email: 'e' }, password: 'p' });
  });

  it('maps the login error codes; any other refusal is invalidEmail', async () => {
    const auth = make();
    const cases: [unknown, string][] = [
      [appError(-19971), 'missingCaptchaToken'],
      [appError('-19970'), 'invalidCaptchaToken'],
      [appError(-19976), 'invalidPassword'],
      [appError(-19973), 'resetPassword'],
      [appError(-19995), 'invalidEmail'], // emailAlreadyExists is registration-only
      [appError('toString'), 'invalidEmail'],
      [appError('WHATEVER'), 'invalidEmail'],
      [
        {
          message: 'bad',
          details: {
            validationError: {
              fieldViolations: [{ field: 'loginId.email', description: 'bad email', violatedRule: 'EMAIL' }],
            },
          },
        },
        'invalidEmail',
      ],
      [{}, 'invalidEmail'],
    ];
    for (const [reply, errorCode] of cases) {
      answer(`${IAM}/login`, 400, reply);
      const r = await auth.login({ email: 'a@b.c', password: 'pw' });
      expect(r).toMatchObject({ loginState: 'FAILURE', errorCode });
      expect(typeof (r as { error: string }).error).toBe('string');
    }
    answer(`${IAM}/login`, 403, appError(-19976, 'Wrong password'));
    expect(await auth.login({ email: 'a', password: 'b' })).toEqual({
      loginState: 'FAILURE',
      error: 'Wrong password',
      errorCode: 'invalidPassword',
    });
  });

  it('throws transport failures instead of inventing an outcome', async () => {
    const auth = make();
    nock(BASE).post(`${IAM}/login`).replyWithError('ECONNRESET');
    await expect(auth.login({ email: 'a', password: 'b' })).rejects.toBeInstanceOf(NetworkError);
    nock(BASE).post(`${IAM}/login`).reply(500, {});
    await expect(auth.login({ email: 'a', password: 'b' })).rejects.toBeInstanceOf(HttpError);
    const ac = new AbortController();
    ac.abort();
    await expect(auth.login({ email: 'a', password: 'b', signal: ac.signal })).rejects.toBeInstanceOf(AbortedError);
  });
});

describe('register', () => {
  it('sends loginId, password, profile and captcha tokens; maps states', async () => {
    const auth = make();
    const seen = answer(`${IAM}/register`, 200, { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'ST1' });
    const r = await auth.register({
      email: 'n@b.c',
      password: 'pw',
      profile: { nickname: 'Nick' },
      captchaTokens: { invisibleRecaptcha: 'I', recaptcha: 'V' },
    });
    expect(r).toEqual({ loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'ST1' } });
    expect(seen.body).toEqual({
      loginId: { email: 'n@b.c' },
      password: 'pw',
      profile: { nickname: 'Nick' },
      captchaTokens: [{ Recaptcha: 'V' }, { InvisibleRecaptcha: 'I' }],
    });
  });

  it('sends profile custom dates in wire form', async () => {
    const auth = make();
    const seen = answer(`${IAM}/register`, 200, { state: 'SUCCESS', sessionToken: 's' });
    await auth.register({
      email: 'n',
      password: 'p',
      profile: { customFields: [{ name: 'born', value: { dateValue: new Date('2000-01-02T00:00:00.000Z') } }] },
    });
    expect(seen.body).toMatchObject({
      profile: { customFields: [{ name: 'born', value: { dateValue: '2000-01-02T00:00:00.000Z' } }] },
    });
  });

  it('maps the registration error codes; others are a failure with the message only', async () => {
    const auth = make();
    const cases: [unknown, string | undefined][] = [
      [appError(-19971), 'missingCaptchaToken'],
      [appError(-19970), 'invalidCaptchaToken'],
      [appError(-19995), 'emailAlreadyExists'],
      [appError(-19976), undefined], // invalidPassword is login-only
      [appError('OTHER', 'nope'), undefined],
    ];
    for (const [reply, errorCode] of cases) {
      answer(`${IAM}/register`, 400, reply);
      const r = await auth.register({ email: 'a@b.c', password: 'pw' });
      expect(r.loginState).toBe('FAILURE');
      if (errorCode) expect(r).toMatchObject({ errorCode });
      else expect('errorCode' in r).toBe(false);
    }
    answer(`${IAM}/register`, 409, appError(-19995, 'Email exists'));
    expect(await auth.register({ email: 'a', password: 'b' })).toEqual({
      loginState: 'FAILURE',
      error: 'Email exists',
      errorCode: 'emailAlreadyExists',
    });
  });

  it('an EMAIL violation (by rule or by data type) gives invalidEmail with its description; no crash without an application error', async () => {
    const auth = make();
    answer(`${IAM}/register`, 400, {
      message: 'invalid',
      details: {
        validationError: {
          fieldViolations: [
            { field: 'password', description: 'too short' },
            { field: 'loginId.email', description: 'not an email', violatedRule: 'EMAIL' },
          ],
        },
      },
    });
    expect(await auth.register({ email: 'x', password: 'p' })).toEqual({
      loginState: 'FAILURE',
      error: 'not an email',
      errorCode: 'invalidEmail',
    });
    answer(`${IAM}/register`, 400, {
      message: 'invalid',
      details: {
        validationError: {
          fieldViolations: [
            { field: 'loginId.email', description: 'bad format', violatedRule: 'FORMAT', data: { type: 'EMAIL' } },
          ],
        },
      },
    });
    expect(await auth.register({ email: 'x', password: 'p' })).toEqual({
      loginState: 'FAILURE',
      error: 'bad format',
      errorCode: 'invalidEmail',
    });
    // A validation error that is not about the email, and no application error: the official SDK throws a TypeError here.
    answer(`${IAM}/register`, 400, {
      message: 'invalid',
      details: {
        validationError: { fieldViolations: [{ field: 'password', description: 'too short', data: null }, null] },
      },
    });
    const r = await auth.register({ email: 'x', password: 'p' });
    expect(r).toEqual({ loginState: 'FAILURE', error: 'INVALID_ARGUMENT: password: too short' });
  });
});

describe('verification', () => {
  it("continues only while email verification is required, else 'Unknown _state'", async () => {
    const auth = make();
    expect(await auth.processVerification({ verificationCode: '123' })).toEqual({
      loginState: 'FAILURE',
      error: 'Unknown _state',
    });
    answer(`${IAM}/login`, 200, { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'ST' });
    await auth.login({ email: 'a', password: 'b' });
    const seen = answer('/_api/iam/verification/v1/auth/verify', 200, { state: 'SUCCESS', sessionToken: 'SESSION' });
    expect(await auth.processVerification({ verificationCode: '123' })).toEqual({
      loginState: 'SUCCESS',
      data: { sessionToken: 'SESSION' },
    });
    expect(seen.body).toEqual({ code: '123', stateToken: 'ST' });
    // The flow moved on: a second verification has nothing to continue.
    expect(await auth.processVerification({ verificationCode: '123' })).toEqual({
      loginState: 'FAILURE',
      error: 'Unknown _state',
    });
  });

  it('takes an explicit state (e.g. restored after a reload) and the official `code` spelling', async () => {
    const auth = make();
    const seen = answer('/_api/iam/verification/v1/auth/verify', 200, { state: 'REQUIRE_OWNER_APPROVAL' });
    const r = await auth.processVerification(
      { code: '9' },
      { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'X' } },
    );
    expect(r).toEqual({ loginState: 'OWNER_APPROVAL_REQUIRED' });
    expect(seen.body).toEqual({ code: '9', stateToken: 'X' });
    expect(
      await auth.processVerification({ code: '9' }, { loginState: 'SUCCESS', data: { sessionToken: 's' } }),
    ).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
  });

  it('a wrong code rejects with the server error', async () => {
    const auth = make();
    answer('/_api/iam/verification/v1/auth/verify', 400, appError('WRONG_CODE', 'Wrong code'));
    await expect(
      auth.processVerification(
        { verificationCode: '0' },
        { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'X' } },
      ),
    ).rejects.toBeInstanceOf(ApplicationError);
  });

  it("resends the code with the state token, else 'Unknown _state'", async () => {
    const auth = make();
    const e = await auth.resendVerificationCode().catch((x) => x);
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toBe('Unknown _state');
    expect(e.code).toBe('UNKNOWN_STATE');
    answer(`${IAM}/register`, 200, { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'RS' });
    await auth.register({ email: 'a', password: 'b' });
    const seen = answer('/_api/iam/verification/v1/auth/resend', 200, {});
    await expect(auth.resendVerificationCode()).resolves.toBeUndefined();
    expect(seen.body).toEqual({ stateToken: 'RS' });
  });
});

describe('recovery and password', () => {
  it('sendPasswordResetEmail sends {email, redirect: {url, clientId}}', async () => {
    const auth = make();
    const seen = answer('/_api/iam/recovery/v1/send-email', 200, {});
    await expect(auth.sendPasswordResetEmail('a@b.c', 'https://app.test/reset')).resolves.toBeUndefined();
    expect(seen.body).toEqual({ email: 'a@b.c', redirect: { url: 'https://app.test/reset', clientId: 'c' } });
  });

  it('recover (the official arguments: the token, then {password}) sends both and resolves the service state', async () => {
    const auth = make();
    const seen = answer('/_api/iam/recovery/v1/recover', 200, { state: 'SUCCESS', sessionToken: 'S' });
    expect(await auth.recover('RT', { password: 'new-pw' })).toEqual({ state: 'SUCCESS', sessionToken: 'S' });
    expect(seen.body).toEqual({ recoveryToken: 'RT', password: 'new-pw' });
    answer('/_api/iam/recovery/v1/recover', 400, appError('EXPIRED', 'Token expired'));
    await expect(auth.recover('old', { password: 'x' })).rejects.toThrow('Token expired');
  });

  it('changePassword sends {newPassword} with the current token', async () => {
    const auth = make();
    const seen = answer(`${IAM}/change-password`, 200, {});
    await expect(auth.changePassword('s3cret')).resolves.toBeUndefined();
    expect(seen.body).toEqual({ newPassword: 's3cret' });
  });
});

describe('failure text', () => {
  it('is the server message, without our request id or status line', async () => {
    const auth = make();
    nock(BASE)
      .post(`${IAM}/login`)
      .reply(
        400,
        { message: 'Wrong password', details: { applicationError: { code: '-19976' } } },
        { 'x-wix-request-id': 'REQ-1' },
      );
    expect(await auth.login({ email: 'a@b.test', password: 'p' })).toEqual({
      loginState: 'FAILURE',
      error: 'Wrong password',
      errorCode: 'invalidPassword',
    });
    nock(BASE).post(`${IAM}/register`).reply(400, { message: 'weird', details: {} }, { 'x-wix-request-id': 'REQ-2' });
    expect(await auth.register({ email: 'a@b.test', password: 'p' })).toEqual({
      loginState: 'FAILURE',
      error: 'weird',
    });
  });

  it('null options are bad input, never a TypeError', async () => {
    const auth = make();
    nock(BASE).post(`${IAM}/login`).reply(200, { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 's' });
    expect((await auth.login({ email: 'a@b.test', password: 'p', captchaTokens: null as never })).loginState).toBe(
      'EMAIL_VERIFICATION_REQUIRED',
    );
    nock(BASE).post('/_api/iam/verification/v1/auth/resend').reply(200, {});
    await expect(auth.resendVerificationCode(null as never)).resolves.toBeUndefined();
    await expect(auth.getAuthUrl(undefined as never)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(auth.renewToken(undefined as never)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
