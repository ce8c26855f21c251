import { jest } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { ForbiddenException, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthErrors } from '../../../base/common/auth/auth.errors.js';
import { ApiError } from '../../../base/common/errors/api-error.js';
import { OidcErrors } from './oidc.errors.js';
import { UserinfoExceptionFilter } from './userinfo-exception.filter.js';

/** A response that records its headers, status and body. */
function response() {
  const headers: Record<string, string> = {};
  const res = {
    headersSent: false,
    headers,
    statusCode: 0,
    body: undefined as unknown,
    setHeader: jest.fn((k: string, v: string) => void (headers[k.toLowerCase()] = v)),
    getHeader: jest.fn((k: string) => headers[k.toLowerCase()]),
    status: jest.fn((code: number) => {
      res.statusCode = code;
      return res;
    }),
    json: jest.fn((body: unknown) => {
      res.body = body;
      return res;
    }),
  };
  return res;
}

function answer(exception: unknown, authorization?: string) {
  const req = {
    method: 'GET',
    path: '/API/auth/v1/oauth/userinfo',
    headers: authorization === undefined ? {} : { authorization },
  } as unknown as Request;
  const res = response();
  const host = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res as unknown as Response }),
  } as unknown as ArgumentsHost;
  const filter = new UserinfoExceptionFilter();
  // a 500 is logged: kept out of the test output
  (filter as unknown as { logger: object }).logger = { error: jest.fn(), warn: jest.fn() };
  filter.catch(exception, host);
  return res;
}

const REALM = 'Bearer realm="portcullis"';

describe('UserinfoExceptionFilter (RFC 6750 §3 challenges)', () => {
  it('no token: 401 with the scheme and realm alone (no error code, §3.1)', () => {
    const res = answer(AuthErrors.NO_CREDENTIALS());
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe(REALM);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-error-code']).toBe('auth.NO_CREDENTIALS');
    expect(res.body).toEqual({ errors: ['Authentication credentials were not provided'] });
  });

  it.each([
    ['an invalid token', AuthErrors.INVALID_TOKEN(), 'Invalid token'],
    ['an expired token', AuthErrors.TOKEN_EXPIRED(), 'Token has expired'],
    ['a revoked token', AuthErrors.TOKEN_REVOKED(), 'Token has been revoked'],
    [
      'a sign-in or a PAT',
      OidcErrors.NOT_AN_ACCESS_TOKEN(),
      'The userinfo endpoint takes an OAuth access token',
    ],
  ])('%s: 401 invalid_token with its description', (_what, error, text) => {
    const res = answer(error, 'Bearer abc');
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      `${REALM}, error="invalid_token", error_description="${text}"`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('any Authorization header counts as a token presented (even an empty or foreign one)', () => {
    for (const h of ['', 'Basic dXNlcjpwdw==']) {
      expect(answer(AuthErrors.NO_CREDENTIALS(), h).headers['www-authenticate']).toContain(
        'error="invalid_token"',
      );
    }
  });

  it('a description with quotes or backslashes cannot break out of its quoted-string', () => {
    const res = answer(new ApiError(401, ['bad "token" \\ here', 'second']), 'Bearer x');
    const header = res.headers['www-authenticate'];
    expect(header).toBe(`${REALM}, error="invalid_token", error_description="bad 'token' ' here; second"`);
    // exactly the quotes the header itself opens and closes
    expect(header.split('"').length - 1).toBe(6);
  });

  it.each([
    ['a token without openid', AuthErrors.MISSING_SCOPE(['openid'])],
    ['a token that needs user_impersonation', AuthErrors.USER_IMPERSONATION_REQUIRED()],
  ])('%s: 403 insufficient_scope, scope="openid"', (_what, error) => {
    const res = answer(error, 'Bearer abc');
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toBe(`${REALM}, error="insufficient_scope", scope="openid"`);
    expect(res.body).toEqual({ errors: error.errors });
  });

  it.each([
    ['another 403 (a frozen domain)', AuthErrors.DOMAIN_FROZEN(), 403],
    ['a 403 of Nest without a code', new ForbiddenException('no'), 403],
    ['a 404', new NotFoundException('User not found'), 404],
    ['a 400', ApiError.badRequest('bad'), 400],
    [
      'a 503 (the database down)',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      503,
    ],
    ['a 500 (a bug)', new Error('bug'), 500],
  ])('%s: no challenge', (_what, error, status) => {
    const res = answer(error, 'Bearer abc');
    expect(res.statusCode).toBe(status);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a 500 says nothing of the error', () => {
    const res = answer(new Error('secret internals at /srv/app.js:12'), 'Bearer abc');
    expect(res.body).toEqual({ errors: ['Internal server error'] });
  });

  it('headers already sent: nothing written', () => {
    const req = { headers: {} } as Request;
    const res = { ...response(), headersSent: true };
    const host = {
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => res as unknown as Response }),
    } as unknown as ArgumentsHost;
    new UserinfoExceptionFilter().catch(AuthErrors.INVALID_TOKEN(), host);
    expect(res.setHeader).not.toHaveBeenCalled();
    expect(res.status).not.toHaveBeenCalled();
  });
});
