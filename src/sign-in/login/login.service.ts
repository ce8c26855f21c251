import { Injectable } from '@nestjs/common';
import { LoginErrors } from './login.errors.js';
import type { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { MarketplaceService } from '../marketplace/marketplace.service.js';
import { CredentialsService } from './credentials.service.js';
import { SignInAuthority } from './sign-in-authority.js';
import { OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';

@Injectable()
export class LoginService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly signIns: SignInAuthority,
    private readonly marketplace: MarketplaceService,
  ) {}

  /**
   * Password sign-in. An unknown email, a wrong password and an inactive user get the same answer after the
   * same work (see CredentialsService); then the shared sign-in result (SignInService).
   */
  async simpleLogin(
    email: string,
    password: string,
    marketplaceNonce?: string | null,
    origin: AuditOrigin = OUTSIDE_REQUEST,
  ): Promise<LoginTokenDto> {
    const requestId = origin.requestId;
    const user = await this.credentials.verify(email, password, { origin });
    if (!user) throw LoginErrors.BAD_CREDENTIALS();
    if (!marketplaceNonce)
      return this.signIns.signIn(user, 'password', LoginErrors.BAD_CREDENTIALS, undefined, origin);
    // a marketplace signup nonce (src/marketplace): 400 when unusable; consumed, with the sign-in, only when
    // it yields exactly one domain token and no factor is owed (else multidomain/login or a link consumes it)
    await this.marketplace.assertUsable(marketplaceNonce);
    return this.signIns.signIn(
      user,
      'password',
      LoginErrors.BAD_CREDENTIALS,
      async (em, { domainIds, owed }) => {
        if (owed || domainIds.length !== 1) return;
        await this.marketplace.consumeAtSignIn(em, marketplaceNonce, user.id, domainIds[0], requestId);
      },
      origin,
    );
  }
}
