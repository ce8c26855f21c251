import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { DataSource } from 'typeorm';
import { SamlRequestEntity } from './identity-provider.entity.js';

/** How long an AuthnRequest waits for its answer. */
export const REQUEST_TTL_MS = 10 * 60 * 1000;

/**
 * node-saml's InResponseTo cache, in the database (every instance sees every request) and per IdP (a request
 * sent to one IdP is no answer for another). Removal is the ACS's own step: it consumes the request, with
 * its return address, once the response is accepted.
 */
export class SamlRequestCache implements CacheProvider {
  constructor(
    private readonly ds: DataSource,
    private readonly idpId: string,
    private readonly returnTo: string | null = null,
  ) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    await this.ds.getRepository(SamlRequestEntity).insert({
      id: key,
      identity_provider_id: this.idpId,
      return_to: this.returnTo,
      expires: new Date(Date.now() + REQUEST_TTL_MS),
    });
    return { value, createdAt: Date.now() };
  }

  async getAsync(key: string): Promise<string | null> {
    const rows = (await this.ds.query(
      'SELECT expires FROM saml_requests WHERE id = $1 AND identity_provider_id = $2 AND expires > now()',
      [key, this.idpId],
    )) as { expires: Date }[];
    return rows.length ? new Date(new Date(rows[0].expires).getTime() - REQUEST_TTL_MS).toISOString() : null;
  }

  async removeAsync(): Promise<string | null> {
    return null;
  }
}
