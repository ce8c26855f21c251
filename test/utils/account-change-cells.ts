import { randomUUID } from 'node:crypto';
import { DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer } from './auth.js';
import type { TestApp } from './create-test-app.js';

/** A password no policy refuses, new each time. */
export const STRONG = () => `Unusual-${randomUUID()}-Passphrase`;
export const TOTP_CONFIGURE = '/API/users/v1/users/current/totp/configure/';

/**
 * The sign-in authority matrices' "change password" cell (test/e2e/sign-in-authority*.e2e-spec.ts): the session
 * changes its account's password (200), or is refused (403) and the password stays as it was.
 */
export async function expectPasswordChange(
  t: TestApp,
  sessionToken: string,
  email: string,
  change: 'ok' | 'refused',
): Promise<void> {
  const res = await t.http
    .patch('/API/users/v1/users/current/')
    .set(bearer(sessionToken))
    .send({ password: STRONG() });
  expect(res.status === 200 ? 'ok' : res.status).toBe(change === 'ok' ? 'ok' : 403);
  // a refused change leaves the password as it was
  if (change === 'refused')
    await t.http
      .post('/API/auth/v1/auth/simple/login/')
      .send({ email, password: DEFAULT_PASSWORD })
      .expect(201);
}

/** The matrices' "enrol a factor" cell: the session starts a TOTP enrolment (201), or is refused (403). */
export async function expectFactorEnrolment(
  t: TestApp,
  sessionToken: string,
  change: 'ok' | 'refused',
): Promise<void> {
  const res = await t.http.post(TOTP_CONFIGURE).set(bearer(sessionToken));
  expect(res.status === 201 ? 'ok' : res.status).toBe(change === 'ok' ? 'ok' : 403);
}
