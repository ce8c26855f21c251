// The like-for-like peer (issue 23, item 1): panva's oidc-provider configured the way this service works.
// Opaque access tokens and rotating refresh tokens, every token one row in the same PostgreSQL as the
// service (a small adapter below: durable writes, one row per token), validation through the provider's
// introspection endpoint. node bench/oidc-durable-peer.mjs <port> <client_id> <client_secret> <database_url>
// Prints `ready` when it listens. GET /bench/refresh-tokens?n=20 mints refresh tokens (with their grant) the
// way an authorization-code exchange would store them, for the refresh-rotation runs.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';
import Provider from 'oidc-provider';

const [port, clientId, clientSecret, databaseUrl] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
await pool.query(`CREATE TABLE IF NOT EXISTS bench_oidc_peer (
  model text NOT NULL, id text NOT NULL, payload jsonb NOT NULL, grant_id text, uid text, user_code text,
  expires_at timestamptz, consumed_at timestamptz, PRIMARY KEY (model, id))`);
await pool.query('CREATE INDEX IF NOT EXISTS bench_oidc_peer_grant ON bench_oidc_peer (grant_id)');

/** oidc-provider's adapter contract over one table; each call one statement. */
class PostgresAdapter {
  constructor(model) {
    this.model = model;
  }
  async upsert(id, payload, expiresIn) {
    await pool.query(
      `INSERT INTO bench_oidc_peer (model, id, payload, grant_id, uid, user_code, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
      [
        this.model,
        id,
        payload,
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ?? null,
        expiresIn ?? null,
      ],
    );
  }
  async findBy(column, value) {
    const { rows } = await pool.query(
      `SELECT payload, consumed_at FROM bench_oidc_peer
        WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [this.model, value],
    );
    if (!rows[0]) return undefined;
    const { payload, consumed_at: consumed } = rows[0];
    return consumed ? { ...payload, consumed: Math.floor(consumed.getTime() / 1000) } : payload;
  }
  find(id) {
    return this.findBy('id', id);
  }
  findByUid(uid) {
    return this.findBy('uid', uid);
  }
  findByUserCode(code) {
    return this.findBy('user_code', code);
  }
  async consume(id) {
    await pool.query('UPDATE bench_oidc_peer SET consumed_at = now() WHERE model = $1 AND id = $2', [
      this.model,
      id,
    ]);
  }
  async destroy(id) {
    await pool.query('DELETE FROM bench_oidc_peer WHERE model = $1 AND id = $2', [this.model, id]);
  }
  async revokeByGrantId(grantId) {
    await pool.query('DELETE FROM bench_oidc_peer WHERE grant_id = $1', [grantId]);
  }
}

const RESOURCE = 'urn:portcullis:api';
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const provider = new Provider(`http://127.0.0.1:${port}`, {
  adapter: PostgresAdapter,
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
      redirect_uris: ['http://127.0.0.1/cb'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
      scope: 'assets:read',
    },
  ],
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'ES256', use: 'sig' }] },
  // offline_access registers the refresh_token grant (refresh tokens are minted below, as a code exchange would)
  scopes: ['assets:read', 'offline_access'],
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  rotateRefreshToken: true,
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true, allowedPolicy: async () => true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => RESOURCE,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'assets:read',
        accessTokenFormat: 'opaque',
        accessTokenTTL: 12 * 3600,
      }),
    },
  },
});

/** Refresh tokens as an authorization-code exchange with offline access stores them: a grant, a token. */
async function mintRefreshTokens(n) {
  const client = await provider.Client.find(clientId);
  const out = [];
  for (let i = 0; i < n; i++) {
    const grant = new provider.Grant({ accountId: 'bench-user', clientId });
    grant.addResourceScope(RESOURCE, 'assets:read');
    const grantId = await grant.save();
    const rt = new provider.RefreshToken({
      accountId: 'bench-user',
      client,
      grantId,
      gty: 'authorization_code',
      resource: RESOURCE,
      scope: 'assets:read',
    });
    out.push(await rt.save());
  }
  return out;
}

const handle = provider.callback();
createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname !== '/bench/refresh-tokens') return handle(req, res);
  mintRefreshTokens(Number(url.searchParams.get('n') ?? 1)).then(
    (tokens) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(tokens)),
    (err) => res.writeHead(500).end(String(err)),
  );
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
