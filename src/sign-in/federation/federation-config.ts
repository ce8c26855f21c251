import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** Federated sign-in (docs/federated-login.md): where a domain's directories and OpenID providers may be. */
export interface FederationConfig {
  /**
   * Directories and OpenID providers on private, loopback and other non-public addresses. Off by default (a
   * tenant's administrator must not make the service reach its internal network); turn it on where the
   * company directories live on a private network the operator trusts.
   */
  allowPrivate: boolean;
  /** OpenID providers over plain http (tests and development only). */
  allowHttpIssuers: boolean;
}

export const FEDERATION_CONFIG = configNamespace('federation', (env, problems): FederationConfig => {
  const { bool } = envReader(env, problems);
  return {
    allowPrivate: bool('FEDERATION_ALLOW_PRIVATE', false),
    allowHttpIssuers: bool('OIDC_ALLOW_HTTP_ISSUERS', false),
  };
});
