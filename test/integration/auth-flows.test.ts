/**
 * Every sign-in flow of our SDK end to end against the emulator: registration with the emailed
 * code, owner approval, captcha, login errors, recovery, password change, direct login turned into
 * member tokens (Node: the hosted page's redirect read without following it), reusable refresh tokens,
 * external login, logout.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isApplicationError, type Client, type OAuthAuth } from '../../src/index.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { newEmail, readOutbox, sessionTokenOf, setConfig } from '../helpers/sign-in.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());
afterEach(() =>
  setConfig(emulator, { emailVerificationRequired: false, ownerApprovalRequired: false, captchaRequired: false }),
);

/** The redirect URI of the tests' pretend app (the demo client allows any localhost port). */
const APP = 'http://localhost:5999/callback';
const outbox = (to: string) => readOutbox(emulator, to);

/** A member client: registered (and signed in) through the SDK. */
async function registeredMember(
  email = newEmail('member'),
  password = 'correct horse',
): Promise<{ client: Client<OAuthAuth>; email: string; password: string }> {
  const client = emulator.newVisitor();
  const outcome = await client.auth.register({ email, password, profile: { nickname: 'Reg' } });
  expect(outcome.loginState).toBe('SUCCESS');
  await client.auth.getMemberTokensForDirectLogin(sessionTokenOf(outcome), { redirectUri: APP });
  return { client, email, password };
}

describe('registration', () => {
  it('register → code from the outbox → verify → member tokens → current member → profile update → logout', async () => {
    await setConfig(emulator, { emailVerificationRequired: true });
    const client = emulator.newVisitor();
    const email = newEmail('verify');
    const registered = await client.auth.register({
      email,
      password: 'a long passphrase',
      profile: { nickname: 'Journey', firstName: 'Ada' },
    });
    expect(registered.loginState).toBe('EMAIL_VERIFICATION_REQUIRED');

    const [mail] = await outbox(email);
    expect(mail).toMatchObject({ to: email, kind: 'verification-code' });
    expect(mail!.code).toMatch(/^\d{6}$/);
    expect(mail!.text).toContain(mail!.code);

    // A wrong code is refused and leaves the pending sign-in usable.
    await expect(
      client.auth.processVerification({ verificationCode: mail!.code == '000000' ? '111111' : '000000' }),
    ).rejects.toMatchObject({ code: 'INVALID_VERIFICATION_CODE' });
    const verified = await client.auth.processVerification({ verificationCode: mail!.code! }, registered);
    expect(verified.loginState).toBe('SUCCESS');
    // The same code (state token) works once.
    await expect(client.auth.processVerification({ verificationCode: mail!.code! }, registered)).rejects.toMatchObject({
      code: 'INVALID_STATE_TOKEN',
    });

    const tokens = await client.auth.getMemberTokensForDirectLogin(sessionTokenOf(verified), { redirectUri: APP });
    expect(tokens.refreshToken.role).toBe('member');
    expect(client.auth.loggedIn()).toBe(true);

    const me = (await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member!;
    expect(me).toMatchObject({
      loginEmail: email,
      loginEmailVerified: true,
      status: 'APPROVED',
      profile: { nickname: 'Journey' },
      contact: { firstName: 'Ada' },
    });
    expect(me._createdDate).toBeInstanceOf(Date);

    const updated = await client.members.updateMember(me._id!, { profile: { title: 'Explorer' } });
    expect(updated.profile).toMatchObject({ nickname: 'Journey', title: 'Explorer' });

    const { logoutUrl } = await client.auth.logout('http://localhost:5999/bye');
    expect(client.auth.loggedIn()).toBe(false);
    const page = await fetch(logoutUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('http://localhost:5999/bye');
  });

  it('resends the code: only the latest one works', async () => {
    await setConfig(emulator, { emailVerificationRequired: true });
    const client = emulator.newVisitor();
    const email = newEmail('resend');
    const registered = await client.auth.register({ email, password: 'secret words' });
    const first = (await outbox(email))[0]!.code!;
    await client.auth.resendVerificationCode(registered);
    const emails = await outbox(email);
    expect(emails).toHaveLength(2);
    const latest = emails[0]!.code!;
    if (first != latest)
      await expect(client.auth.processVerification({ code: first }, registered)).rejects.toMatchObject({
        code: 'INVALID_VERIFICATION_CODE',
      });
    expect((await client.auth.processVerification({ code: latest }, registered)).loginState).toBe('SUCCESS');
  });

  it('owner approval: PENDING until the owner approves, then login succeeds', async () => {
    await setConfig(emulator, { ownerApprovalRequired: true });
    const client = emulator.newVisitor();
    const email = newEmail('approval');
    expect((await client.auth.register({ email, password: 'pending please' })).loginState).toBe(
      'OWNER_APPROVAL_REQUIRED',
    );
    expect((await client.auth.login({ email, password: 'pending please' })).loginState).toBe('OWNER_APPROVAL_REQUIRED');

    const page = await emulator.admin.members
      .queryMembers({ fieldsets: ['FULL'] })
      .eq('loginEmail', email)
      .find();
    const pending = page.items[0]!;
    expect(pending.status).toBe('PENDING');
    expect((await emulator.admin.members.approveMember(pending._id!)).member?.status).toBe('APPROVED');
    expect((await client.auth.login({ email, password: 'pending please' })).loginState).toBe('SUCCESS');
  });

  it('refuses a taken email, a malformed email and a short password, writing nothing', async () => {
    const { email } = await registeredMember();
    const client = emulator.newVisitor();
    expect(await client.auth.register({ email: email.toUpperCase(), password: 'whatever you like' })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'emailAlreadyExists',
    });
    expect(await client.auth.register({ email: 'not-an-email', password: 'whatever you like' })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'invalidEmail',
    });
    const short = newEmail('short');
    expect(await client.auth.register({ email: short, password: 'abc' })).toMatchObject({ loginState: 'FAILURE' });
    expect(await client.auth.login({ email: short, password: 'abcd' })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'invalidEmail',
    });
  });
});

describe('login', () => {
  it('answers every login error code of the specification in its situation', async () => {
    const { email, password } = await registeredMember();
    const client = emulator.newVisitor();
    expect(await client.auth.login({ email, password: 'wrong password' })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'invalidPassword',
    });
    expect(await client.auth.login({ email: newEmail('nobody'), password })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'invalidEmail',
    });

    // A member created by the owner has no password yet: it must be reset (set) first.
    const created = await emulator.admin.members.createMember({
      member: { loginEmail: newEmail('created'), profile: { nickname: 'Made' } },
    });
    expect(await client.auth.login({ email: created.loginEmail!, password: 'anything at all' })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'resetPassword',
    });

    await setConfig(emulator, { captchaRequired: true });
    expect(await client.auth.login({ email, password })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'missingCaptchaToken',
    });
    expect(
      await client.auth.login({ email, password, captchaTokens: { recaptcha: 'sitekit-captcha-fail' } }),
    ).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidCaptchaToken' });
    expect(await client.auth.register({ email: newEmail('captcha'), password })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'missingCaptchaToken',
    });
    expect(
      (await client.auth.login({ email, password, captchaTokens: { invisibleRecaptcha: 'sitekit-captcha-pass' } }))
        .loginState,
    ).toBe('SUCCESS');
  });

  it('a blocked member cannot sign in (STATUS_CHECK) and loses its sessions', async () => {
    const { client, email, password } = await registeredMember();
    const me = (await client.members.getCurrentMember()).member!;
    await emulator.admin.members.blockMember(me._id!);
    expect(await emulator.newVisitor().auth.login({ email, password })).toEqual({
      loginState: 'FAILURE',
      error: 'Unknown _state',
      errorCode: 'STATUS_CHECK',
      identityStatus: 'BLOCKED',
    });
    await expect(client.auth.renewToken(client.auth.getTokens().refreshToken)).rejects.toThrow();
    await emulator.admin.members.approveMember(me._id!);
    expect((await emulator.newVisitor().auth.login({ email, password })).loginState).toBe('SUCCESS');
  });
});

describe('member tokens', () => {
  it('a session token works once', async () => {
    const { email, password } = await registeredMember();
    const client = emulator.newVisitor();
    const outcome = await client.auth.login({ email, password });
    await client.auth.getMemberTokensForDirectLogin(sessionTokenOf(outcome), { redirectUri: APP });
    const again = emulator.newVisitor();
    await expect(
      again.auth.getMemberTokensForDirectLogin(sessionTokenOf(outcome), { redirectUri: APP }),
    ).rejects.toMatchObject({ message: expect.stringContaining('Failed to get member tokens') });
    expect(again.auth.loggedIn()).toBe(false);
  });

  it('member refresh tokens are reusable (as on the platform): renewed twice with the first one, the member stays the same', async () => {
    const { client } = await registeredMember();
    const before = client.auth.getTokens();
    const me = (await client.members.getCurrentMember()).member!;
    const renewed = await client.auth.renewToken(before.refreshToken);
    expect(renewed.refreshToken.role).toBe('member');
    const again = await client.auth.renewToken(before.refreshToken);
    expect(again.refreshToken.role).toBe('member');
    client.auth.setTokens(again);
    expect((await client.members.getCurrentMember()).member?._id).toBe(me._id);
  });

  it('visitor tokens: generated, kept while valid, renewed with their refresh token', async () => {
    const client = emulator.newVisitor();
    const visitor = await client.auth.generateVisitorTokens();
    expect(visitor.refreshToken.role).toBe('visitor');
    expect(visitor.accessToken.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(await client.auth.generateVisitorTokens(visitor)).toBe(visitor);
    const renewed = await client.auth.generateVisitorTokens({ refreshToken: visitor.refreshToken });
    expect(renewed.accessToken.value).not.toBe(visitor.accessToken.value);
    expect(renewed.refreshToken.role).toBe('visitor');
  });

  it('silent sign-in outside a browser has no emulator session: it fails with login_required as the cause', async () => {
    const error = (await emulator
      .newVisitor()
      .auth.getMemberTokensSilently({ redirectUri: APP })
      .catch((caught: unknown) => caught)) as Error & { cause?: { error?: string } };
    expect(error.message).toContain('Failed to get member tokens');
    expect(error.cause).toMatchObject({ error: 'login_required' });
  });

  it('external login: member tokens for a member id with the API key', async () => {
    const created = await emulator.admin.members.createMember({ member: { loginEmail: newEmail('external') } });
    const client = emulator.newVisitor();
    client.auth.setTokens(await client.auth.getMemberTokensForExternalLogin(created._id!, emulator.info.apiKey));
    expect((await client.members.getCurrentMember()).member?._id).toBe(created._id);
  });

  it('external login refuses an unknown, a blocked and a pending member', async () => {
    const external = (memberId: string) =>
      emulator.newVisitor().auth.getMemberTokensForExternalLogin(memberId, emulator.info.apiKey);
    await expect(external('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: 404,
      cause: { code: 'MEMBER_NOT_FOUND' },
    });
    const blocked = await emulator.admin.members.createMember({ member: { loginEmail: newEmail('blocked') } });
    await emulator.admin.members.blockMember(blocked._id!);
    await expect(external(blocked._id!)).rejects.toMatchObject({
      status: 400,
      cause: { code: 'INVALID_GRANT' },
      message: expect.stringContaining('BLOCKED'),
    });
    const { members } = await emulator.admin.members.listMembers({ paging: { limit: 100 }, fieldsets: ['FULL'] });
    const pending = members?.find((member) => member.status == 'PENDING');
    expect(pending, 'the demo data has a pending member').toBeDefined();
    await expect(external(pending!._id!)).rejects.toMatchObject({
      status: 400,
      cause: { code: 'INVALID_GRANT' },
      message: expect.stringContaining('PENDING'),
    });
  });

  it('changes the password of the signed-in member', async () => {
    const { client, email, password } = await registeredMember();
    await client.auth.changePassword('a brand new one');
    const other = emulator.newVisitor();
    expect(await other.auth.login({ email, password })).toMatchObject({
      loginState: 'FAILURE',
      errorCode: 'invalidPassword',
    });
    expect((await other.auth.login({ email, password: 'a brand new one' })).loginState).toBe('SUCCESS');
    await expect(emulator.newVisitor().auth.changePassword('visitor cannot')).rejects.toMatchObject({ status: 403 });
  });
});

describe('recovery', () => {
  it('recovery email → link from the outbox → new password → login; the link works once', async () => {
    const { email } = await registeredMember(newEmail('recover'), 'forgotten one');
    const client = emulator.newVisitor();
    await client.auth.sendPasswordResetEmail(email, 'http://localhost:5999/reset');
    const [mail] = await outbox(email);
    expect(mail).toMatchObject({ kind: 'password-recovery', subject: 'Reset your password' });
    const link = new URL(mail!.link!);
    expect(link.origin + link.pathname).toBe('http://localhost:5999/reset');
    const recoveryToken = link.searchParams.get('recoveryToken')!;

    const recovered = await client.auth.recover(recoveryToken, { password: 'remembered now' });
    expect(recovered.state).toBe('SUCCESS');
    expect(await client.auth.login({ email, password: 'forgotten one' })).toMatchObject({
      errorCode: 'invalidPassword',
    });
    expect((await client.auth.login({ email, password: 'remembered now' })).loginState).toBe('SUCCESS');
    await expect(client.auth.recover(recoveryToken, { password: 'third time' })).rejects.toMatchObject({
      code: 'INVALID_RECOVERY_TOKEN',
    });
    expect((await client.auth.login({ email, password: 'remembered now' })).loginState).toBe('SUCCESS');
  });

  it('says nothing about unknown addresses and refuses foreign redirect URLs', async () => {
    const client = emulator.newVisitor();
    const nobody = newEmail('nobody');
    await client.auth.sendPasswordResetEmail(nobody, 'http://localhost:5999/reset');
    expect(await outbox(nobody)).toEqual([]);
    const { email } = await registeredMember();
    await expect(client.auth.sendPasswordResetEmail(email, 'https://evil.example/steal')).rejects.toMatchObject({
      code: 'INVALID_REDIRECT_URI',
    });
    expect(await outbox(email)).toEqual([]);
  });

  it('activation email lets a member created by the owner set a password', async () => {
    const email = newEmail('activate');
    const created = await emulator.admin.members.createMember({ member: { loginEmail: email } });
    const response = await emulator.fetch('/_api/iam/recovery/v1/activation-email', {
      method: 'POST',
      headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        identityId: created._id,
        emailOptions: { redirect: { url: 'http://localhost:5999/activate' } },
      }),
    });
    expect(response.status).toBe(200);
    const [mail] = await outbox(email);
    expect(mail!.kind).toBe('account-activation');
    const client = emulator.newVisitor();
    expect(
      (
        await client.auth.recover(new URL(mail!.link!).searchParams.get('recoveryToken')!, {
          password: 'my first password',
        })
      ).state,
    ).toBe('SUCCESS');
    expect((await client.auth.login({ email, password: 'my first password' })).loginState).toBe('SUCCESS');
  });
});

describe('errors are typed', () => {
  it('a transport-level refusal of the state machine is an application error with the request id', async () => {
    const error = await emulator
      .newVisitor()
      .auth.processVerification(
        { code: '123456' },
        { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'state.forged' } },
      )
      .catch((caught: unknown) => caught);
    expect(isApplicationError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_STATE_TOKEN', status: 400 });
    expect((error as { requestId?: string }).requestId).toBeTruthy();
  });
});
