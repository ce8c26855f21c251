// The peer for the client_credentials comparison: panva's oidc-provider, the reference Node OAuth server,
// configured minimally for the same job (confidential client, client_secret_basic, ES256 JWT access tokens,
// its default in-memory storage). node bench/oidc-peer.mjs <port> <client_id> <client_secret>
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

const [port, clientId, clientSecret] = process.argv.slice(2);
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
      scope: 'assets:read',
    },
  ],
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'ES256', use: 'sig' }] },
  scopes: ['assets:read'],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => 'urn:portcullis:api',
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'assets:read',
        accessTokenFormat: 'jwt',
        accessTokenTTL: 12 * 3600,
        jwt: { sign: { alg: 'ES256' } },
      }),
    },
  },
});
provider.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
