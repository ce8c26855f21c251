import { jest } from '@jest/globals';
import type { Request } from 'express';
import type { Authenticator } from '../../../auth/authenticator.js';
import type { BaseConfig } from '../../../base/config/config.js';
import type { PageCookie } from '../../../base/common/html/page-result.js';
import type { UserEntity } from '../../../base/model/user.entity.js';
import type { TokensService } from '../../../credentials/tokens/tokens.service.js';
import type { SignInAuthority } from '../../login/sign-in-authority.js';
import type { OAuthRepository } from '../oauth.repository.js';
import { ConsentSessionService } from './consent-session.service.js';

const MANAGER = { manager: 'outside a transaction' };
const config = (base: string, secret: string) =>
  ({
    http: { publicBaseUrl: base },
    auth: { keyEncryptionSecret: secret, loginTokenTtlSeconds: 3600, tempTokenTtlSeconds: 300 },
  }) as unknown as BaseConfig;

function setup(base = 'https://auth.example', secret = 'k'.repeat(43), domains: string[] = ['d1', 'd2']) {
  const repo = { manager: MANAGER };
  const tokens = { userDomainIds: jest.fn(async () => domains) };
  const signIns = { serviceSession: jest.fn(async () => ({ token: 'login-jwt' })) };
  const service = new ConsentSessionService(
    repo as unknown as OAuthRepository,
    config(base, secret),
    {} as Authenticator,
    tokens as unknown as TokensService,
    signIns as unknown as SignInAuthority,
  );
  return { service, tokens, signIns };
}

const request = (cookies: Record<string, string>) =>
  ({
    headers: {
      cookie: Object.entries(cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    },
  }) as unknown as Request;
const named = (cookies: PageCookie[], name: string) => cookies.find((c) => c.name === name) as PageCookie;
const user = { id: 'u1', system_domain_id: 'home' } as UserEntity;

describe('ConsentSessionService: the consent page’s session', () => {
  it('signs in for the app’s domain when the user belongs to it, else their home domain (outside a transaction)', async () => {
    const s = setup();
    await s.service.start(user, 'd2');
    expect(s.signIns.serviceSession).toHaveBeenCalledWith(
      MANAGER,
      { userId: 'u1', domainId: 'd2' },
      { method: 'password' },
    );
    await s.service.start(user, 'elsewhere');
    expect(s.signIns.serviceSession).toHaveBeenLastCalledWith(
      MANAGER,
      { userId: 'u1', domainId: 'home' },
      { method: 'password' },
    );
  });

  it('the session cookie: HttpOnly, lax, Secure over https, /oauth, the login token’s lifetime; the pending one goes', async () => {
    const cookies = setup().service.startWith('login-jwt');
    expect(named(cookies, 'portcullis_session')).toEqual({
      name: 'portcullis_session',
      value: 'login-jwt',
      options: { httpOnly: true, sameSite: 'lax', secure: true, path: '/oauth', maxAge: 3_600_000 },
    });
    expect(named(cookies, 'portcullis_pending')).toEqual({
      name: 'portcullis_pending',
      value: null,
      options: { path: '/oauth' },
    });
    const csrf = named(cookies, '__Host-portcullis_csrf');
    expect(csrf.options).toEqual({ httpOnly: true, sameSite: 'strict', secure: true, path: '/' });
  });

  it('over plain http: no __Host- prefix, not Secure, path /oauth', () => {
    const cookies = setup('http://localhost:3000').service.startWith('login-jwt');
    const csrf = named(cookies, 'portcullis_csrf');
    expect(csrf.options).toEqual({ httpOnly: true, sameSite: 'strict', secure: false, path: '/oauth' });
    expect(named(cookies, 'portcullis_session').options.secure).toBe(false);
  });

  it('the pending sign-in: its own strict cookie for the temporary token’s lifetime', () => {
    expect(setup().service.startPending('temp')).toEqual([
      {
        name: 'portcullis_pending',
        value: 'temp',
        options: { httpOnly: true, sameSite: 'strict', secure: true, path: '/oauth', maxAge: 300_000 },
      },
    ]);
  });
});

describe('ConsentSessionService: the CSRF token (double submit, bound to the session)', () => {
  it('a token minted for a session passes with that session only', () => {
    const { service } = setup();
    const token = named(service.startWith('sess-1'), '__Host-portcullis_csrf').value as string;
    const csrf = '__Host-portcullis_csrf';
    expect(service.csrfValid(request({ [csrf]: token, portcullis_session: 'sess-1' }), token)).toBe(true);
    expect(service.csrfValid(request({ [csrf]: token, portcullis_session: 'sess-2' }), token)).toBe(false);
    expect(service.csrfValid(request({ [csrf]: token }), token)).toBe(false);
  });

  it('the submitted value must equal the cookie', () => {
    const { service } = setup();
    const token = named(service.startWith('s'), '__Host-portcullis_csrf').value as string;
    const req = request({ '__Host-portcullis_csrf': token, portcullis_session: 's' });
    expect(service.csrfValid(req, `${token}x`)).toBe(false);
    expect(service.csrfValid(req, undefined)).toBe(false);
    expect(service.csrfValid(request({ portcullis_session: 's' }), token)).toBe(false);
  });

  it('a cookie not minted by the service (another key, or made up) never passes', () => {
    const { service } = setup();
    const foreign = setup('https://auth.example', 'x'.repeat(43)).service.csrfToken(request({})).token;
    expect(service.csrfValid(request({ '__Host-portcullis_csrf': foreign }), foreign)).toBe(false);
    const planted = 'nonce.forgedmac';
    expect(service.csrfValid(request({ '__Host-portcullis_csrf': planted }), planted)).toBe(false);
    const own = service.csrfToken(request({})).token;
    expect(service.csrfValid(request({ '__Host-portcullis_csrf': own }), own)).toBe(true);
  });

  it('csrfToken: keeps a valid cookie of this session; mints a new one (with its cookie) otherwise', () => {
    const { service } = setup();
    const anonymous = service.csrfToken(request({}));
    expect(anonymous.cookie?.name).toBe('__Host-portcullis_csrf');
    const kept = service.csrfToken(request({ '__Host-portcullis_csrf': anonymous.token }));
    expect(kept).toEqual({ token: anonymous.token });
    // the anonymous token is bound to "no session": signed in, a new one
    const signedIn = service.csrfToken(
      request({ '__Host-portcullis_csrf': anonymous.token, portcullis_session: 's' }),
    );
    expect(signedIn.token).not.toBe(anonymous.token);
    expect(signedIn.cookie).toBeDefined();
  });
});
