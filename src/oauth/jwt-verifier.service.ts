import { Injectable } from '@nestjs/common';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { JWT_ALGORITHM, SigningKeysService } from '../keys/signing-keys.service.js';
import type { JwtClaims } from '../tokens/tokens.service.js';

/** Signature and expiry check outside the request guard (revocation, introspection, the consent session). */
@Injectable()
export class JwtVerifier {
  constructor(private readonly keys: SigningKeysService) {}

  async verify(token: string): Promise<JwtClaims | null> {
    try {
      const { kid } = decodeProtectedHeader(token);
      if (!kid) return null;
      const key = await this.keys.verificationKey(kid);
      if (!key) return null;
      const { payload } = await jwtVerify(token, key, { algorithms: [JWT_ALGORITHM] });
      if (typeof payload.id !== 'string' || typeof payload.app_id !== 'string') return null;
      return payload as unknown as JwtClaims;
    } catch {
      return null;
    }
  }
}
