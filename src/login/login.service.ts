import { Injectable } from '@nestjs/common';
import { LoginErrors } from './login.errors.js';
import type { LoginTokenDto } from '../tokens/dto/token.dto.js';
import { CredentialsService } from './credentials.service.js';
import { SignInService } from './sign-in.service.js';

@Injectable()
export class LoginService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly signIns: SignInService,
  ) {}

  /**
   * Password sign-in. An unknown email, a wrong password and an inactive user get the same answer after the
   * same work (see CredentialsService); then the shared sign-in result (SignInService).
   */
  async simpleLogin(email: string, password: string): Promise<LoginTokenDto> {
    const user = await this.credentials.verify(email, password);
    if (!user) throw LoginErrors.BAD_CREDENTIALS();
    return this.signIns.signIn(user, LoginErrors.BAD_CREDENTIALS);
  }
}
