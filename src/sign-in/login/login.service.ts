import { Injectable } from '@nestjs/common';
import { LoginErrors } from './login.errors.js';
import type { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { MarketplaceService } from '../marketplace/marketplace.service.js';
import { CredentialsService } from './credentials.service.js';
import { GuessingDefence } from '../../accounts/lockout/guessing-defence.js';
import { SignInAuthority } from './sign-in-authority.js';
import { OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';

@Injectable()
export class LoginService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly signIns: SignInAuthority,
    private readonly marketplace: MarketplaceService,
    private readonly defence: GuessingDefence,
  ) {}

  /**
   * Password sign-in. An unknown email, a wrong password and an inactive user get the same answer after the
   * same work (see CredentialsService); then the shared sign-in result (SignInService). Besides argon2id it is
   * two statements: the account with the guessing defence's reservation and the memberships, and the tokens
   * with their audit records, the count's clear and `last_login` (docs/performance.md).
   */
  async simpleLogin(
    email: string,
    password: string,
    marketplaceNonce?: string | null,
    origin: AuditOrigin = OUTSIDE_REQUEST,
  ): Promise<LoginTokenDto> {
    const requestId = origin.requestId;
    const verified = await this.credentials.verifyForSignIn(email, password, origin);
    if (!verified) throw LoginErrors.BAD_CREDENTIALS();
    const { user } = verified;
    const read = { memberships: verified.memberships, clearFactor: 'password' as const };
    try {
      if (!marketplaceNonce)
        return await this.signIns.signIn(user, 'password', LoginErrors.BAD_CREDENTIALS, undefined, origin, read);
      // a marketplace signup nonce (src/marketplace): 400 when unusable; consumed, with the sign-in, only when
      // it yields exactly one domain token and no factor is owed (else multidomain/login or a link consumes it)
      await this.marketplace.assertUsable(marketplaceNonce);
      return await this.signIns.signIn(
        user,
        'password',
        LoginErrors.BAD_CREDENTIALS,
        async (em, { domainIds, owed }) => {
          if (owed || domainIds.length !== 1) return;
          await this.marketplace.consumeAtSignIn(em, marketplaceNonce, user.id, domainIds[0], requestId);
        },
        origin,
        read,
      );
    } catch (err) {
      // the password was right but no token statement committed the count's clear: forget it here
      await this.defence.forget(user.id, 'password');
      throw err;
    }
  }
}
