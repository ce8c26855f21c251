import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../../base/common/auth/auth-context.js';
import { AuthErrors } from '../../../base/common/auth/auth.errors.js';
import { personClaims } from './id-token.service.js';
import type { UserinfoDto } from './oidc.dto.js';
import { OidcRepository } from './oidc.repository.js';

/** The userinfo answer: the person's claims as they are now, for the scopes the token was granted. */
@Injectable()
export class UserinfoService {
  constructor(private readonly repo: OidcRepository) {}

  async of(caller: AuthContext): Promise<UserinfoDto> {
    const person = await this.repo.person(caller.userId);
    // the token's lookup found the user active a moment ago; gone since is the token's end
    if (!person) throw AuthErrors.INVALID_TOKEN();
    return personClaims(person, caller.scopes ?? []) as unknown as UserinfoDto;
  }
}
