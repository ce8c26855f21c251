import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { IdentityProvidersRepository } from './identity-providers.repository.js';

/** How long an AuthnRequest waits for its answer. */
export const REQUEST_TTL_MS = 10 * 60 * 1000;

/**
 * node-saml's InResponseTo cache, in the database (every instance sees every request) and per IdP (a request
 * sent to one IdP is no answer for another). Removal is the ACS's own step: it consumes the request, with
 * its return address, once the response is accepted.
 */
export class SamlRequestCache implements CacheProvider {
  constructor(
    private readonly repo: IdentityProvidersRepository,
    private readonly idpId: string,
    private readonly returnTo: string | null = null,
  ) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    await this.repo.saveRequest(key, this.idpId, this.returnTo, new Date(Date.now() + REQUEST_TTL_MS));
    return { value, createdAt: Date.now() };
  }

  async getAsync(key: string): Promise<string | null> {
    const expires = await this.repo.pendingRequestExpiry(key, this.idpId);
    return expires ? new Date(expires.getTime() - REQUEST_TTL_MS).toISOString() : null;
  }

  async removeAsync(): Promise<string | null> {
    return null;
  }
}
