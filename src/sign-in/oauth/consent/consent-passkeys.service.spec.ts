import { jest } from '@jest/globals';
import type { Request } from 'express';
import type { AuthContext } from '../../../base/common/auth/auth-context.js';
import { ApiError } from '../../../base/common/errors/api-error.js';
import type { PageCookie, PageResult } from '../../../base/common/html/page-result.js';
import type { UserEntity } from '../../../base/model/user.entity.js';
import { ConsentPasskeys } from './consent-passkeys.service.js';
import { v } from '../../../../test/utils/consent-flow-fakes.js';
import type { Step } from './consent-step.js';
import { construct } from '../../../../test/utils/fakes/construct.js';
import { expectPage, factorOwed } from '../../../../test/utils/fakes/pages.js';

// The consent page's passkey button (issue 42): its options (CSRF-checked) and the assertion it posts, for a
// sign-in with the passkey alone or for the second step of a pending sign-in. PasskeySignIn's own checks are
// passkey-sign-in.service.spec.ts; the page in a browser, test/e2e/passkey-browser.e2e-spec.ts.

const REQ = { id: 'req-9', ip: '198.51.100.4' } as unknown as Request;
const SESSION: PageCookie[] = [{ name: 'portcullis_session', value: 'login-jwt', options: {} }];
const PENDING: PageCookie[] = [{ name: 'portcullis_pending', value: 'temp', options: {} }];
const pendingSignIn = { userId: 'u1', systemDomainId: 'd1', tokenId: 't1' } as AuthContext;
const ASSERTION = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
};
const FORM = { client_id: 'app1', state: 'st', csrf: 'csrf', response: JSON.stringify(ASSERTION) };
const BACK = /^\/oauth\/authorize\?client_id=app1&state=st$/;

function setup(o: { pending?: AuthContext | null; csrf?: boolean } = {}) {
  const passkeys = {
    options: jest.fn(async () => ({ challenge: 'ch', allowCredentials: [] })),
    completeSecondFactor: jest.fn(async (): Promise<{ token: string | null }> => ({ token: 'mfa-jwt' })),
    signIn: jest.fn(
      async (
        _b: unknown,
        _o: unknown,
        choose: (u: UserEntity) => Promise<string>,
      ): Promise<Record<string, unknown>> => ({
        token: 'pk-jwt',
        chosen: await choose({ id: 'u1' } as UserEntity),
      }),
    ),
  };
  const sessions = {
    csrfValid: jest.fn(() => o.csrf ?? true),
    pending: jest.fn(async () => (o.pending === undefined ? null : o.pending)),
    startWith: jest.fn(() => SESSION),
    startPending: jest.fn(() => PENDING),
    chooseDomain: jest.fn(async () => 'd-app'),
  };
  const mfa = {
    owedFactor: jest.fn(async (): Promise<{ codes: ('TOTP' | 'RECOVERY')[]; passkey: boolean } | null> => ({
      codes: ['TOTP', 'RECOVERY'],
      passkey: false,
    })),
  };
  const domains = { byId: jest.fn(async (id: string) => ({ id })) };
  const service = construct(ConsentPasskeys, passkeys, sessions, mfa, domains);
  const step: Step = {
    v,
    csrf: 'csrf',
    page: (status, html, cookies = []) => ({ status, html, cookies }),
    redirect: (location, cookies = []) => ({ status: 303, redirect: location, cookies }),
  };
  const loginForm = jest.fn(async (status: number, error: string): Promise<PageResult> => ({
    status,
    html: `login form: ${error}`,
  }));
  const complete = (form: Record<string, string | undefined> = FORM) =>
    service.complete(REQ, step, form, form, loginForm);
  return { service, passkeys, sessions, mfa, domains, loginForm, complete };
}

describe('ConsentPasskeys.options', () => {
  it('usernameless options for a signed-out page, the pending sign-in’s for its second step', async () => {
    const out = setup();
    expect(await out.service.options(REQ, 'csrf')).toEqual({ challenge: 'ch', allowCredentials: [] });
    expect(out.passkeys.options).toHaveBeenCalledWith({}, null);
    const second = setup({ pending: pendingSignIn });
    await second.service.options(REQ, 'csrf');
    expect(second.passkeys.options).toHaveBeenCalledWith({}, pendingSignIn);
  });

  it('a forged or stale CSRF token: null, and no challenge is handed out', async () => {
    const s = setup({ csrf: false });
    expect(await s.service.options(REQ, 'forged')).toBeNull();
    expect(s.passkeys.options).not.toHaveBeenCalled();
  });
});

describe('ConsentPasskeys.complete: a sign-in with the passkey alone', () => {
  it('the session for the domain the page chooses (the app’s when the person belongs to it), 303 back', async () => {
    const s = setup();
    const out = await s.complete();
    expect(out).toMatchObject({ status: 303, cookies: SESSION });
    expect(out.redirect).toMatch(BACK);
    expect(s.sessions.startWith).toHaveBeenCalledWith('pk-jwt');
    expect(s.sessions.chooseDomain).toHaveBeenCalledWith({ id: 'u1' }, 'd1');
    const [body, origin] = s.passkeys.signIn.mock.calls[0];
    expect(body).toEqual({ response: expect.objectContaining({ id: 'cred', rawId: 'cred' }) });
    expect(origin).toMatchObject({ requestId: 'req-9', clientAddress: '198.51.100.4' });
  });

  it('a domain whose policy the passkey does not pass: its second step, with the pending cookie', async () => {
    const s = setup();
    s.passkeys.signIn.mockResolvedValueOnce(factorOwed('temp', 'd-app'));
    const out = await s.complete();
    expect(out).toMatchObject({ status: 200, cookies: PENDING });
    expect(out.html).toContain('Code from your authenticator app');
    expect(s.sessions.startPending).toHaveBeenCalledWith('temp');
    expect(s.mfa.owedFactor).toHaveBeenCalledWith('u1', { id: 'd-app' });
  });

  it('nothing the person has passes that domain’s factor: 403 and no pending sign-in', async () => {
    const s = setup();
    s.passkeys.signIn.mockResolvedValueOnce({ token: null, temp_token: 't', user_id: 'u1' });
    s.mfa.owedFactor.mockResolvedValueOnce({ codes: [], passkey: false });
    const out = await s.complete();
    expectPage(out, 403, 'requires an authenticator app');
    expect(s.sessions.startPending).not.toHaveBeenCalled();
  });

  it('refused (401): the sign-in form again saying so, no session', async () => {
    const s = setup();
    s.passkeys.signIn.mockRejectedValueOnce(new ApiError(401, ['Passkey not accepted']));
    expect(await s.complete()).toEqual({ status: 401, html: 'login form: Passkey not accepted.' });
    expect(s.sessions.startWith).not.toHaveBeenCalled();
  });

  it('anything but a refusal (the database down) is thrown on, for the page’s error filter', async () => {
    const s = setup();
    s.passkeys.signIn.mockRejectedValueOnce(new ApiError(503, ['Service unavailable']));
    await expect(s.complete()).rejects.toMatchObject({ status: 503 });
  });

  it.each([
    ['not JSON', '{"id":'],
    ['JSON but no assertion', '[1,2]'],
    [
      'an assertion without its signature',
      JSON.stringify({ ...ASSERTION, response: { clientDataJSON: 'e30' } }),
    ],
    ['a field of the wrong type', JSON.stringify({ ...ASSERTION, id: 42 })],
    ['absent', undefined],
    ['oversized', JSON.stringify({ ...ASSERTION, pad: 'x'.repeat(40_000) })],
  ])('a posted response %s: 400, nothing verified', async (_w, response) => {
    const s = setup();
    const out = await s.complete({ ...FORM, response });
    expect(out).toEqual({ status: 400, html: 'login form: Passkey not accepted.' });
    expect(s.passkeys.signIn).not.toHaveBeenCalled();
  });

  it('a forged CSRF token: 403, nothing verified', async () => {
    const s = setup({ csrf: false });
    const out = await s.complete();
    expect(out.status).toBe(403);
    expect(s.passkeys.signIn).not.toHaveBeenCalled();
    expect(s.passkeys.completeSecondFactor).not.toHaveBeenCalled();
  });
});

describe('ConsentPasskeys.complete: the second step of a pending sign-in', () => {
  it('completes the pending sign-in; its login token becomes the session (303 back)', async () => {
    const s = setup({ pending: pendingSignIn });
    const out = await s.complete();
    expect(out).toMatchObject({ status: 303, cookies: SESSION });
    expect(s.passkeys.completeSecondFactor).toHaveBeenCalledWith(
      { response: expect.objectContaining({ id: 'cred' }) },
      pendingSignIn,
      expect.objectContaining({ requestId: 'req-9' }),
    );
    expect(s.sessions.startWith).toHaveBeenCalledWith('mfa-jwt');
    expect(s.passkeys.signIn).not.toHaveBeenCalled();
  });

  it('refused: the second-factor step again with the error, the pending sign-in kept', async () => {
    const s = setup({ pending: pendingSignIn });
    s.mfa.owedFactor.mockResolvedValueOnce({ codes: [], passkey: true });
    s.passkeys.completeSecondFactor.mockRejectedValueOnce(new ApiError(401, ['Passkey not accepted']));
    const out = await s.complete();
    expectPage(out, 401, 'Passkey not accepted.', 'Use your passkey');
    expect(out.cookies).toEqual([]);
    expect(s.loginForm).not.toHaveBeenCalled();
  });
});
