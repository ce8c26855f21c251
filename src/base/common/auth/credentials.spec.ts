import type { Request } from 'express';
import {
  cookieOf,
  extractCredential,
  headerCredential,
  PENDING_COOKIE,
  presented,
  SESSION_COOKIE,
} from './credentials.js';

/** A request as Node hands it over: header names in lower case. */
const req = (headers: Record<string, string | string[]>, extra: Partial<Request> = {}) =>
  ({ headers, ...extra }) as unknown as Request;

describe('the credential extractor', () => {
  describe('headers: Authorization, else Auth-Token, else Temp-Auth-Token', () => {
    it.each([
      [{ authorization: 'Bearer a.b.c' }, { carrier: 'authorization', token: 'a.b.c' }],
      [{ authorization: 'bearer   a.b.c  ' }, { carrier: 'authorization', token: 'a.b.c' }],
      [{ 'auth-token': ' a.b.c ' }, { carrier: 'auth-token', token: 'a.b.c' }],
      [{ 'temp-auth-token': 't.t.t' }, { carrier: 'temp-auth-token', token: 't.t.t' }],
      // precedence: the first present header decides, with no fallback when its value is no token
      [
        { authorization: 'Bearer a.b.c', 'auth-token': 'x', 'temp-auth-token': 'y' },
        { carrier: 'authorization', token: 'a.b.c' },
      ],
      [
        { authorization: 'Basic dXNlcjpwdw==', 'auth-token': 'x' },
        { carrier: 'authorization', token: null },
      ],
      [
        { authorization: 'Bearer a b', 'auth-token': 'x' },
        { carrier: 'authorization', token: null },
      ],
      [
        { 'auth-token': 'x', 'temp-auth-token': 'y' },
        { carrier: 'auth-token', token: 'x' },
      ],
      // empty headers and a bare `Bearer` count as absent
      [
        { authorization: '', 'auth-token': 'x' },
        { carrier: 'auth-token', token: 'x' },
      ],
      [
        { authorization: ' Bearer ', 'temp-auth-token': 'y' },
        { carrier: 'temp-auth-token', token: 'y' },
      ],
      [
        { authorization: ' ', 'auth-token': '  ', 'temp-auth-token': '' },
        { carrier: 'authorization', token: null },
      ],
      [{}, { carrier: 'authorization', token: null }],
      // a repeated header: its first value
      [{ 'auth-token': ['x', 'y'] }, { carrier: 'auth-token', token: 'x' }],
    ] as const)('%j → %j', (headers, expected) => {
      expect(headerCredential(req(headers as Record<string, string>))).toEqual(expected);
    });
  });

  describe('cookies (the `cookie` package)', () => {
    const cookie = `other=1; ${SESSION_COOKIE}=s.s.s; ${PENDING_COOKIE}=p.p.p`;

    it('reads the named cookie, the first of a repeated one; absent or empty is null', () => {
      expect(cookieOf(req({ cookie }), SESSION_COOKIE)).toBe('s.s.s');
      expect(cookieOf(req({ cookie: `a=1; a=2` }), 'a')).toBe('1');
      expect(cookieOf(req({ cookie: `a=%41` }), 'a')).toBe('A');
      expect(cookieOf(req({ cookie: 'a=' }), 'a')).toBeNull();
      expect(cookieOf(req({ cookie: 'b=1' }), 'a')).toBeNull();
      expect(cookieOf(req({}), 'a')).toBeNull();
    });

    it('a value that does not decode is handed over as sent (verification refuses it)', () => {
      expect(cookieOf(req({ cookie: 'a=%E0%A4%A' }), 'a')).toBe('%E0%A4%A');
    });

    it('each consent source reads its own cookie and never a header', () => {
      const both = req({ cookie, authorization: 'Bearer h.h.h' });
      expect(presented(both, 'consent-session')).toEqual({ carrier: 'session-cookie', token: 's.s.s' });
      expect(presented(both, 'consent-pending')).toEqual({ carrier: 'pending-cookie', token: 'p.p.p' });
      expect(presented(req({ authorization: 'Bearer h.h.h' }), 'consent-session')).toEqual({
        carrier: 'session-cookie',
        token: null,
      });
      // and the headers source never reads a cookie
      expect(presented(req({ cookie }), 'headers')).toEqual({ carrier: 'authorization', token: null });
    });
  });

  describe("passport-jwt's jwtFromRequest", () => {
    it('reads the source the request names (the headers when none) and leaves what it found on the request', () => {
      const r = req({ cookie: `${SESSION_COOKIE}=s.s.s`, 'auth-token': 'h.h.h' });
      expect(extractCredential(r)).toBe('h.h.h');
      expect(r.credential).toEqual({ carrier: 'auth-token', token: 'h.h.h' });
      r.credentialSource = 'consent-session';
      expect(extractCredential(r)).toBe('s.s.s');
      expect(r.credential).toEqual({ carrier: 'session-cookie', token: 's.s.s' });
      r.credentialSource = 'consent-pending';
      expect(extractCredential(r)).toBeNull();
      expect(r.credential).toEqual({ carrier: 'pending-cookie', token: null });
    });
  });
});
