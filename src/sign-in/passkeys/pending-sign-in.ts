import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticator } from '../../auth/authenticator.js';
import { admitToPage } from '../../auth/guard/page-steps.js';
import { PasskeyErrors } from './passkeys.errors.js';
import { ApiError } from '../../base/common/errors/api-error.js';

/**
 * The pending sign-in a passkey route may be the second step of: the request's `Temp-Auth-Token`, through
 * the one Authenticator and the guard's own steps (credential kind TEMP, tenant status), as the API's
 * second-factor routes accept it. The routes are public (a passkey alone signs in too), so the header is
 * read here: absent, null; present and not a live temporary token (or beside another credential), the
 * routes' one 401 (`Passkey not accepted`).
 */
@Injectable()
export class PendingSignIn {
  constructor(private readonly authenticator: Authenticator) {}

  async of(req: Request): Promise<AuthContext | null> {
    const temp = req.headers['temp-auth-token'];
    if (temp === undefined || temp === '') return null;
    // a token the Authenticator refuses (revoked, used up, expired, another kind) is the routes' one answer,
    // as every other refusal of a passkey sign-in; anything else (the database down) is thrown on
    const auth = await this.authenticator.fromHeaders(req).catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 401) return null;
      throw e;
    });
    const admitted = await admitToPage(req, { kinds: ['TEMP'], whileFrozen: true }, auth);
    if (!admitted) throw PasskeyErrors.NOT_ACCEPTED();
    return admitted;
  }
}
