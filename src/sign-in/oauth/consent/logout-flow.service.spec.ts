import { jest } from '@jest/globals';
import type { Request } from 'express';
import type { AuthContext } from '../../../base/common/auth/auth-context.js';
import type { PageCookie, PageResult } from '../../../base/common/html/page-result.js';
import type { AppEntity } from '../../../base/model/app.entity.js';
import type { IdTokenHint } from '../oidc/id-token.service.js';
import { APPROVER } from './consent-step.js';
import { LogoutFlow, type LogoutParams } from './logout-flow.service.js';
import { construct } from '../../../../test/utils/fakes/construct.js';
import { expectPage } from '../../../../test/utils/fakes/pages.js';
import { expectRethrown } from '../../../../test/utils/fakes/expect.js';
import { dbOutage } from '../../../../test/utils/fakes/fixtures.js';

const REQ = {} as Request;
const APP_ID = '11111111-1111-4111-8111-111111111111';
const OTHER_APP = '22222222-2222-4222-8222-222222222222';
const RETURN = 'https://photos.example/signed-out';
const CSRF_COOKIE: PageCookie = { name: 'portcullis_csrf', value: 'minted', options: {} };
const END_COOKIES: PageCookie[] = [{ name: 'portcullis_session', value: null, options: { path: '/oauth' } }];
const app = { id: APP_ID, name: 'Photos', post_logout_redirect_uris: [RETURN] } as unknown as AppEntity;
/** The browser's session: token record s1, whose sid is sid:s1. */
const browser = { userId: 'u1', record: { id: 's1' }, user: { email: 'ada@example.test' } } as AuthContext;
const hintOf = (over: Partial<IdTokenHint> = {}): IdTokenHint => ({
  clientId: APP_ID,
  userId: 'u1',
  sid: 'sid:s1',
  ...over,
});
const NONE = { requestId: null };

function setup() {
  const sessions = {
    current: jest.fn(async (): Promise<AuthContext | null> => browser),
    end: jest.fn(() => END_COOKIES),
    csrfToken: jest.fn((): { token: string; cookie?: PageCookie } => ({
      token: 'csrf',
      cookie: CSRF_COOKIE,
    })),
    csrfValid: jest.fn(() => true),
  };
  const idTokens = {
    verifyHint: jest.fn(async (_h: string): Promise<IdTokenHint | null> => hintOf()),
    sidOf: jest.fn((id: string) => `sid:${id}`),
    sessionGrants: jest.fn(async (sid: string) =>
      sid === 'sid:s1'
        ? [
            { grant_id: 'g1', session_id: 's1', app_id: APP_ID, user_id: 'u1' },
            { grant_id: 'g2', session_id: 's1', app_id: OTHER_APP, user_id: 'u1' },
            // a row of another user under the same sid is never touched
            { grant_id: 'gx', session_id: 'sx', app_id: APP_ID, user_id: 'u2' },
          ]
        : [{ grant_id: 'g9', session_id: 's9', app_id: APP_ID, user_id: 'u1' }],
    ),
  };
  const grants = { revokeGrant: jest.fn(async (_g: string, _o: object) => undefined) };
  const tokens = { revoke: jest.fn(async (_id: string, _o: object) => true) };
  const repo = {
    clientApp: jest.fn(async (id: string): Promise<AppEntity | null> => (id === APP_ID ? app : null)),
  };
  const flow = construct(LogoutFlow, sessions, idTokens, grants, tokens, repo);
  const revoked = () => ({
    grants: grants.revokeGrant.mock.calls.map((c) => c[0]),
    tokens: tokens.revoke.mock.calls.map((c) => c[0]),
  });
  return { flow, sessions, idTokens, grants, tokens, repo, revoked };
}

const NOTHING = { grants: [], tokens: [] };

/** The error page of a refused request: its status and words, no redirect, and nothing revoked. */
function expectErrorPage(s: ReturnType<typeof setup>, out: PageResult, status: number, says: string) {
  expect(out.status).toBe(status);
  expect(out.redirect).toBeUndefined();
  expect(out.html).toContain(says);
  expect(s.revoked()).toEqual(NOTHING);
}

describe('LogoutFlow.start with an id_token_hint', () => {
  it('the hint names the browser’s session: its grants and the session revoked, the cookies cleared, back to the app with state', async () => {
    const s = setup();
    const out = await s.flow.start(REQ, {
      id_token_hint: 'hint',
      post_logout_redirect_uri: RETURN,
      state: 'st',
    });
    expect(s.idTokens.verifyHint).toHaveBeenCalledWith('hint');
    expect(s.sessions.current).toHaveBeenCalledWith(REQ, APPROVER);
    expect(s.idTokens.sessionGrants).toHaveBeenCalledWith('sid:s1');
    expect(s.revoked()).toEqual({ grants: ['g1', 'g2'], tokens: ['s1'] });
    for (const c of [...s.grants.revokeGrant.mock.calls, ...s.tokens.revoke.mock.calls])
      expect(c[1]).toEqual(NONE);
    expect(out).toEqual({ status: 303, redirect: `${RETURN}?state=st`, cookies: END_COOKIES });
  });

  it('the browser’s session approved nothing yet: still revoked, cookies cleared', async () => {
    const s = setup();
    s.idTokens.sessionGrants.mockResolvedValueOnce([]);
    const out = await s.flow.start(REQ, { id_token_hint: 'hint' });
    expect(s.revoked()).toEqual({ grants: [], tokens: ['s1'] });
    expect(out.cookies).toEqual(END_COOKIES);
  });

  it('the hint names another session (another browser): nothing ends without asking; the confirmation page for the browser’s own session', async () => {
    const s = setup();
    s.idTokens.verifyHint.mockResolvedValueOnce(hintOf({ sid: 'sid:s9' }));
    const out = await s.flow.start(REQ, { id_token_hint: 'hint', post_logout_redirect_uri: RETURN });
    expect(s.revoked()).toEqual(NOTHING);
    expect(s.sessions.end).not.toHaveBeenCalled();
    expect(out).toMatchObject({ status: 200, formTarget: RETURN });
    expect(out.html).toContain('Sign out?');
    // the hint's client goes into the form, so the return URI checks again on the confirmation
    expect(out.html).toContain(`name="client_id" value="${APP_ID}"`);
  });

  it('the hint names the browser’s sid but for another user: nothing ends without asking', async () => {
    const s = setup();
    s.idTokens.verifyHint.mockResolvedValueOnce(hintOf({ userId: 'u2' }));
    const out = await s.flow.start(REQ, { id_token_hint: 'hint' });
    expect(s.revoked()).toEqual(NOTHING);
    expect(out.html).toContain('Sign out?');
  });

  it('a valid hint but no session in the browser: nothing to end, another session’s tokens untouched, back to the app', async () => {
    const s = setup();
    s.sessions.current.mockResolvedValueOnce(null);
    const out = await s.flow.start(REQ, { id_token_hint: 'hint', post_logout_redirect_uri: RETURN });
    expect(s.idTokens.sessionGrants).not.toHaveBeenCalled();
    expect(s.revoked()).toEqual(NOTHING);
    expect(out).toMatchObject({ status: 303, redirect: RETURN });
  });

  it('a hint without a sid names no session: nothing revoked without asking', async () => {
    const s = setup();
    s.idTokens.verifyHint.mockResolvedValueOnce(hintOf({ sid: null }));
    const out = await s.flow.start(REQ, { id_token_hint: 'hint' });
    expect(s.idTokens.sessionGrants).not.toHaveBeenCalled();
    expect(s.revoked()).toEqual(NOTHING);
    expect(s.sessions.end).not.toHaveBeenCalled();
    expect(out.html).toContain('Sign out?');
  });

  it('a hint not issued by this service: 400 error page, nothing revoked, no redirect', async () => {
    const s = setup();
    s.idTokens.verifyHint.mockResolvedValueOnce(null);
    const out = await s.flow.start(REQ, { id_token_hint: 'forged', post_logout_redirect_uri: RETURN });
    expectErrorPage(s, out, 400, 'Invalid id_token_hint');
    expect(s.sessions.current).not.toHaveBeenCalled();
  });

  it('a hint for another client than client_id: 400 Wrong client, nothing revoked', async () => {
    const s = setup();
    const out = await s.flow.start(REQ, { id_token_hint: 'hint', client_id: OTHER_APP });
    expectPage(out, 400, 'Wrong client');
    expect(s.revoked()).toEqual(NOTHING);
    expect(s.sessions.end).not.toHaveBeenCalled();
  });

  it('a hint with the same client_id: accepted', async () => {
    const s = setup();
    const out = await s.flow.start(REQ, {
      id_token_hint: 'hint',
      client_id: APP_ID,
      post_logout_redirect_uri: RETURN,
    });
    expect(out).toMatchObject({ status: 303, redirect: RETURN });
  });

  it('a hint whose application is gone: 400 Unknown application, nothing revoked', async () => {
    const s = setup();
    s.idTokens.verifyHint.mockResolvedValueOnce(hintOf({ clientId: OTHER_APP }));
    const out = await s.flow.start(REQ, { id_token_hint: 'hint' });
    expectPage(out, 400, 'Unknown application');
    expect(s.revoked()).toEqual(NOTHING);
  });

  it('a database outage while the hint is checked: thrown on (a 503 page), nothing revoked', async () => {
    const s = setup();
    await expectRethrown(
      s.idTokens.verifyHint,
      () => s.flow.start(REQ, { id_token_hint: 'hint' }),
      dbOutage(),
    );
    expect(s.revoked()).toEqual(NOTHING);
  });

  it('an empty id_token_hint is no hint (the confirmation page)', async () => {
    const s = setup();
    const out = await s.flow.start(REQ, { id_token_hint: '' });
    expect(s.idTokens.verifyHint).not.toHaveBeenCalled();
    expect(out.html).toContain('Sign out?');
  });
});

describe('LogoutFlow.start without a hint', () => {
  it('signed in: the confirmation page (CSRF token, the request’s fields, formTarget = the return URI); nothing revoked', async () => {
    const s = setup();
    const out = await s.flow.start(REQ, {
      client_id: APP_ID,
      post_logout_redirect_uri: RETURN,
      state: 'st"><script>',
    });
    expect(out.status).toBe(200);
    expect(out.cookies).toEqual([CSRF_COOKIE]);
    expect(out.formTarget).toBe(RETURN);
    expect(out.html).toContain('ada@example.test');
    expect(out.html).toContain('Photos asks to sign you out');
    expect(out.html).toContain('name="csrf" value="csrf"');
    expect(out.html).toContain(`name="post_logout_redirect_uri" value="${RETURN}"`);
    expect(out.html).toContain(`name="client_id" value="${APP_ID}"`);
    expect(out.html).toContain('name="confirm" value="1"');
    // the state is escaped into the form, never markup
    expect(out.html).not.toContain('<script>');
    expect(s.revoked()).toEqual(NOTHING);
    expect(s.sessions.end).not.toHaveBeenCalled();
  });

  it('signed in, no client and no return URI: the page without an app name, no formTarget', async () => {
    const s = setup();
    s.sessions.csrfToken.mockReturnValueOnce({ token: 'csrf' });
    const out = await s.flow.start(REQ, {});
    expect(out.status).toBe(200);
    expect(out.cookies).toEqual([]);
    expect(out.formTarget).toBeUndefined();
    expect(out.html).not.toContain('asks to sign you out');
    expect(s.repo.clientApp).not.toHaveBeenCalled();
  });

  it('not signed in: nothing to end: the signed-out page (or back to the app), the cookies cleared', async () => {
    const s = setup();
    s.sessions.current.mockResolvedValue(null);
    const page = await s.flow.start(REQ, {});
    expect(page).toMatchObject({ status: 200, cookies: END_COOKIES });
    expect(page.html).toContain('You are signed out');
    const back = await s.flow.start(REQ, {
      client_id: APP_ID,
      post_logout_redirect_uri: RETURN,
      state: 'st',
    });
    expect(back).toEqual({ status: 303, redirect: `${RETURN}?state=st`, cookies: END_COOKIES });
    expect(s.revoked()).toEqual(NOTHING);
  });
});

describe('LogoutFlow.confirm (the confirmation form)', () => {
  /** The confirmation form as the page posts it back for Photos, with the given fields over it. */
  const confirmation = (over: LogoutParams = {}): LogoutParams => ({
    confirm: '1',
    csrf: 'csrf',
    client_id: APP_ID,
    post_logout_redirect_uri: RETURN,
    ...over,
  });

  it('a stale or forged CSRF token: 403, nothing revoked, the session untouched', async () => {
    const s = setup();
    s.sessions.csrfValid.mockReturnValueOnce(false);
    const out = await s.flow.confirm(REQ, confirmation({ csrf: 'forged' }));
    expect(s.sessions.csrfValid).toHaveBeenCalledWith(REQ, 'forged');
    expectErrorPage(s, out, 403, 'Request expired');
    expect(s.sessions.end).not.toHaveBeenCalled();
  });

  it('a good token: the browser’s session and what it approved revoked, the cookies cleared, back with state', async () => {
    const s = setup();
    const out = await s.flow.confirm(REQ, confirmation({ state: 'a b&c' }));
    expect(s.idTokens.sessionGrants).toHaveBeenCalledWith('sid:s1');
    expect(s.revoked()).toEqual({ grants: ['g1', 'g2'], tokens: ['s1'] });
    expect(out).toEqual({ status: 303, redirect: `${RETURN}?state=a+b%26c`, cookies: END_COOKIES });
  });

  it('a good token but no session any more: the signed-out page, nothing revoked', async () => {
    const s = setup();
    s.sessions.current.mockResolvedValueOnce(null);
    const out = await s.flow.confirm(REQ, { confirm: '1', csrf: 'csrf' });
    expect(out).toMatchObject({ status: 200, cookies: END_COOKIES });
    expect(out.html).toContain('You are signed out');
    expect(s.revoked()).toEqual(NOTHING);
  });

  it('the request is checked before the form: an unregistered URI is a 400 even with a good token', async () => {
    const s = setup();
    const out = await s.flow.confirm(
      REQ,
      confirmation({ post_logout_redirect_uri: 'https://evil.example/' }),
    );
    expect(out.status).toBe(400);
    expect(s.revoked()).toEqual(NOTHING);
  });
});

describe('LogoutFlow: the client and the return URI', () => {
  it.each<[string, LogoutParams]>([
    ['an unknown client_id', { client_id: OTHER_APP }],
    ['a client_id that is not a UUID', { client_id: 'photos' }],
    ['a return URI without a client', { post_logout_redirect_uri: RETURN }],
  ])('%s: 400 Unknown application, nothing ended', async (_what, p) => {
    const s = setup();
    const out = await s.flow.start(REQ, p);
    expect(out.status).toBe(400);
    expect(out.redirect).toBeUndefined();
    expect(out.html).toContain('Unknown application');
    expect(s.sessions.current).not.toHaveBeenCalled();
    expect(s.revoked()).toEqual(NOTHING);
  });

  it('a client_id that is not a UUID is never looked up', async () => {
    const s = setup();
    await s.flow.start(REQ, { client_id: "x' OR 1=1 --" });
    expect(s.repo.clientApp).not.toHaveBeenCalled();
  });

  it.each([
    ['another URI', 'https://evil.example/'],
    ['a trailing slash', `${RETURN}/`],
    ['another case', RETURN.toUpperCase()],
    ['an added query', `${RETURN}?next=https://evil.example`],
    ['a fragment', `${RETURN}#x`],
    ['another port', 'https://photos.example:8443/signed-out'],
    ['a javascript: URI', 'javascript:alert(1)'],
  ])('an unregistered return URI (%s): 400, no redirect, nothing ended, hint or not', async (_w, uri) => {
    for (const p of [
      { client_id: APP_ID, post_logout_redirect_uri: uri },
      { id_token_hint: 'hint', post_logout_redirect_uri: uri },
    ]) {
      const s = setup();
      const out = await s.flow.start(REQ, p);
      expectErrorPage(s, out, 400, 'Unregistered post_logout_redirect_uri');
      expect(s.sessions.end).not.toHaveBeenCalled();
    }
  });

  it('state: appended to the registered URI’s own query; none when empty or absent', async () => {
    const s = setup();
    s.sessions.current.mockResolvedValue(null);
    s.repo.clientApp.mockResolvedValue({
      ...app,
      post_logout_redirect_uris: ['https://photos.example/out?from=op'],
    } as AppEntity);
    const base = { client_id: APP_ID, post_logout_redirect_uri: 'https://photos.example/out?from=op' };
    expect((await s.flow.start(REQ, { ...base, state: 'x/y' })).redirect).toBe(
      'https://photos.example/out?from=op&state=x%2Fy',
    );
    expect((await s.flow.start(REQ, { ...base, state: '' })).redirect).toBe(
      'https://photos.example/out?from=op',
    );
    expect((await s.flow.start(REQ, base)).redirect).toBe('https://photos.example/out?from=op');
  });

  it('a state that is not a string (a repeated parameter) is left out', async () => {
    const s = setup();
    s.sessions.current.mockResolvedValue(null);
    const out = await s.flow.start(REQ, {
      client_id: APP_ID,
      post_logout_redirect_uri: RETURN,
      state: ['a', 'b'] as unknown as string,
    });
    expect(out.redirect).toBe(RETURN);
  });

  it('no return URI: the signed-out page, whatever the state', async () => {
    const s = setup();
    const out = await s.flow.start(REQ, { id_token_hint: 'hint', state: 'state-zq81' });
    expect(out.status).toBe(200);
    expect(out.redirect).toBeUndefined();
    expect(out.html).toContain('You are signed out');
    expect(out.html).not.toContain('state-zq81');
  });
});
