import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { AppEntity } from '../../base/model/app.entity.js';
import { ClientRegistry } from '../../credentials/apps/client-registry.js';
import { isUuid } from '../../base/common/validation/uuid.js';
import { constantTimeEqualHex, sha256Hex } from '../../base/common/crypto/secrets.js';
import { invalidClient, invalidRequest, unauthorizedClient } from './oauth.errors.js';

export interface AuthenticatedClient {
  app: Readonly<AppEntity>;
  /** true when the client proved a secret (confidential clients always do). */
  authenticated: boolean;
}

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
function parseBasic(header: string | undefined): { id: string; secret: string } | null {
  if (!header || !/^Basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, '').trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) throw invalidClient('Malformed Basic credentials');
  try {
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)) };
  } catch {
    throw invalidClient('Malformed Basic credentials');
  }
}

/**
 * Client authentication for the token, revocation and introspection endpoints. Confidential clients prove
 * their secret (form or Basic, never both) against its SHA-256 in constant time; public clients name
 * themselves and must not send a secret; service-account apps are refused with unauthorized_client.
 */
@Injectable()
export class ClientAuthService {
  constructor(private readonly clients: ClientRegistry) {}

  async authenticate(req: Request, form: Record<string, string | undefined>): Promise<AuthenticatedClient> {
    const basic = parseBasic(req.headers.authorization);
    if (basic && form.client_secret !== undefined) {
      throw invalidRequest(
        'Use one client authentication method: HTTP Basic or client_secret in the form, not both',
      );
    }
    if (basic && form.client_id !== undefined && form.client_id !== basic.id) {
      throw invalidRequest('client_id in the form differs from the Basic credentials');
    }
    const clientId = basic?.id ?? form.client_id;
    const secret = basic?.secret ?? form.client_secret;
    if (!clientId) throw invalidClient('client_id is required');
    if (!isUuid(clientId)) throw invalidClient('Unknown client');
    const app = await this.clients.find(clientId);
    if (!app) throw invalidClient('Unknown client');
    // lets the error filter answer a browser app's failed request with CORS headers too
    (req as Request & { oauthClient?: Readonly<AppEntity> }).oauthClient = app;
    if (app.type !== 'OAUTH') throw unauthorizedClient();
    if (app.oauth_client_type === 'confidential') {
      if (secret === undefined || secret === '') throw invalidClient('Client authentication required');
      if (!app.client_secret_hash || !constantTimeEqualHex(app.client_secret_hash, sha256Hex(secret))) {
        throw invalidClient('Client authentication failed');
      }
      return { app, authenticated: true };
    }
    if (secret !== undefined) throw invalidClient('Public clients do not authenticate with a secret');
    return { app, authenticated: false };
  }
}
