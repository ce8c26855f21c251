// npm run bench: the service's hot paths against the framework floor and the oidc-provider peers, in
// alternating rounds (docs/performance.md says what each phase measures, the tunables and the figures).
//
// The service runs in its own process (bench/server-process.ts) on a fresh PostgreSQL database (created on
// DATABASE_URL's server and dropped at the end), and so does the framework floor; autocannon runs in a child
// process too. In one process the load generator, the seeding and the server would share one JavaScript
// thread and one heap: every figure would be understated and the resident set not the service's. This
// process keeps an instance of the application that never listens (`app`), for seeding and for minting the
// refresh tokens the rotation runs start from, between runs. Everything is on loopback. Tunables:
// BENCH_CONNECTIONS, BENCH_DURATION, BENCH_WARMUP, BENCH_ROUNDS (each comparison's ratio is the median of its
// rounds': this VM drifts by ±20% from one minute to the next), BENCH_PHASES (a subset of ALL_PHASES; with
// BENCH_ONLY, search or upload runs alone), BENCH_PROFILE, BENCH_NODE_FLAGS (the servers' Node flags instead of
// start:prod's: bench/heap-sweep.mjs runs the candidates).
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app/app.factory.js';
import { OAuthTokensService } from '../src/sign-in/oauth/oauth-tokens.service.js';
import { randomSecret } from '../src/base/config/config.js';
import { loadConfig } from '../src/app/config.js';
import { SERVICE_FLAGS, startServer } from './servers.js';
import { adminQuery, databaseUrl } from './scratch-database.js';
import { basic, call, FORM } from './http-client.js';
import { startPeer } from './peers.js';
import {
  CONNECTIONS,
  DURATION,
  maxRssMb,
  measure,
  median,
  positiveInt,
  profiled,
  setService,
  WARMUP,
} from './measure.js';
import { loginPhase } from './login-bench.js';
import { scalePhase } from './scale-bench.js';
import { searchPhase } from './search-bench.js';
import { uploadPhase } from './upload-bench.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const PHASE_NAMES = 'livez,token_validate,client_credentials,refresh_token,login,scale,search,upload';
const ALL_PHASES = PHASE_NAMES.split(',');
// BENCH_ONLY=search: the search section alone (the same as BENCH_PHASES=search)
const PHASES = (process.env.BENCH_ONLY ?? process.env.BENCH_PHASES ?? PHASE_NAMES)
  .split(',')
  .map((p) => p.trim());
for (const p of PHASES) if (!ALL_PHASES.includes(p)) throw new Error(`BENCH_PHASES: unknown phase ${p}`);
// Hard bound: setup, every warm-up and measured run, and teardown.
// The search section adds its seeding (minutes on a loaded machine) and up to four more runs.
const DEADLINE_MS =
  (90 +
    13 * ROUNDS * (WARMUP + DURATION + 15) +
    (PHASES.includes('search') ? 600 : 0) +
    (PHASES.includes('scale') ? 900 : 0)) *
  1000;

const dbName = `portcullis_bench_${randomBytes(6).toString('hex')}`;
const deadline = setTimeout(() => {
  console.error(`bench: exceeded ${DEADLINE_MS / 1000}s; giving up (database ${dbName} may remain)`);
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

await adminQuery(`CREATE DATABASE ${dbName}`);
// the FILE storage of the upload section (removed at the end)
const storageDir = mkdtempSync(join(tmpdir(), 'portcullis-bench-files-'));
let exitCode = 0;
try {
  const email = 'bench-admin@portcullis.test';
  const password = randomSecret();
  const serviceEnv: Record<string, string> = {
    DATABASE_URL: databaseUrl(dbName),
    KEY_ENCRYPTION_SECRET: process.env.KEY_ENCRYPTION_SECRET ?? randomSecret(),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    BOOTSTRAP_ADMIN_EMAIL: email,
    BOOTSTRAP_ADMIN_PASSWORD: password,
    STORAGE_DIR: storageDir,
    // the load comes from one address and one token: every request is charged to its bucket in Redis as
    // in production, with budgets no run reaches (RATE_LIMIT_ENABLED=false measures without the limiter)
    RATE_LIMIT_ENABLED: process.env.RATE_LIMIT_ENABLED ?? 'true',
    ...Object.fromEntries(
      [
        'RATE_LIMIT',
        'RATE_LIMIT_USER',
        'RATE_LIMIT_SIGNIN',
        'RATE_LIMIT_OAUTH',
        'RATE_LIMIT_ANONYMOUS',
      ].flatMap((p) => [
        [`${p}_BURST`, '1000000000'],
        [`${p}_PER_SECOND`, '1000000000'],
      ]),
    ),
  };
  const config = loadConfig(serviceEnv);
  // the service under test: its own process, started first (it runs the migrations)
  const server = await startServer('service', serviceEnv);
  setService(server);
  // the same application here, never listening: seeding and minting between runs (same keys, same database)
  const app = await createApp(config);
  try {
    const base = server.base;

    const login = await call(base, 'POST', '/API/auth/v1/auth/simple/login/', undefined, { email, password });
    const adminToken = login.token as string;
    const adminId = login.user_id as string;
    const svc = await call(base, 'POST', '/API/auth/v1/apps/', adminToken, {
      name: 'bench service account',
      type: 'PAT',
      default_user_id: adminId,
    });
    const pat = (await call(base, 'POST', `/API/auth/v1/apps/${svc.id as string}/token/`, adminToken))
      .token as string;

    console.log(`node_flags=${SERVICE_FLAGS.join(' ')}`);
    console.log(`connections=${CONNECTIONS}`);
    console.log(`duration_s=${DURATION}`);
    console.log(`warmup_s=${WARMUP}`);
    const results: { ok: boolean }[] = [];
    const run = PHASES.includes.bind(PHASES);
    // the like-for-like peer: durable opaque tokens in this PostgreSQL (bench/oidc-durable-peer.mjs)
    const durableSecret = randomSecret();
    const durableAuth = basic('bench-durable-client', durableSecret);
    const durable = ['token_validate', 'client_credentials', 'refresh_token'].some((p) => run(p))
      ? await startPeer('oidc-durable-peer.mjs', ['bench-durable-client', durableSecret, databaseUrl(dbName)])
      : null;
    try {
      if (run('livez') || run('token_validate')) {
        // livez and the framework floor (a bare Nest/Express route, bench/floor-app.ts), alternately
        const floor = await startServer('floor');
        const livezRounds: number[] = [];
        const floorRounds: number[] = [];
        try {
          for (let round = 1; round <= ROUNDS; round++) {
            const suffix = ROUNDS > 1 ? `_round${round}` : '';
            const livez = await profiled(`livez${suffix}`, () =>
              measure(`livez${suffix}`, (seconds) => ({ url: `${base}/API/auth/livez/`, seconds })),
            );
            const bare = await profiled(
              `floor${suffix}`,
              () =>
                measure(
                  `floor${suffix}`,
                  (seconds) => ({ url: `${floor.base}/API/auth/livez/`, seconds }),
                  floor.pid,
                ),
              floor,
            );
            results.push(livez, bare);
            livezRounds.push(livez.rps);
            floorRounds.push(bare.rps);
          }
        } finally {
          await floor.close();
        }
        const livezRps = median(livezRounds);
        console.log(`livez_median_rps=${livezRps.toFixed(0)}`);
        console.log(`floor_median_rps=${median(floorRounds).toFixed(0)}`);
        console.log(`livez_vs_floor=${median(livezRounds.map((l, i) => l / floorRounds[i])).toFixed(3)}`);
        if (run('token_validate')) {
          // PAT validation here and the durable peer's introspection of its opaque token, alternately
          const peerToken = (await (
            await fetch(`${durable!.base}/token`, {
              method: 'POST',
              headers: { ...FORM, Authorization: durableAuth },
              body: 'grant_type=client_credentials&scope=assets%3Aread',
            })
          ).json()) as { access_token: string };
          const validated: number[] = [];
          const introspected: number[] = [];
          for (let round = 1; round <= ROUNDS; round++) {
            const suffix = ROUNDS > 1 ? `_round${round}` : '';
            const token = await profiled(`token_validate${suffix}`, () =>
              measure(`token_validate${suffix}`, (seconds) => ({
                url: `${base}/API/auth/v1/auth/token/`,
                seconds,
                headers: { Authorization: `Bearer ${pat}` },
              })),
            );
            const introspect = await measure(
              `durable_peer_introspect${suffix}`,
              (seconds) => ({
                url: `${durable!.base}/token/introspection`,
                seconds,
                method: 'POST',
                headers: { ...FORM, Authorization: durableAuth },
                body: `token=${peerToken.access_token}`,
              }),
              durable!.pid,
            );
            results.push(token, introspect);
            validated.push(token.rps);
            introspected.push(introspect.rps);
          }
          const ratio = (median(validated) / livezRps).toFixed(3);
          console.log(`token_validate_ratio=${ratio}`);
          console.log(`validate_vs_livez=${ratio}`);
          console.log(
            `validate_vs_durable_introspect=${median(validated.map((v, i) => v / introspected[i])).toFixed(3)}`,
          );
        }
      }

      // OAuth: a backend service (confidential, acting as the admin) for both grants
      const client = await call(base, 'POST', '/API/auth/v1/apps/', adminToken, {
        name: 'bench backend service',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        default_user_id: adminId,
        allowed_scopes: ['assets:read'],
      });
      const clientAuth = basic(client.id as string, client.client_secret as string);
      const ccBody = 'grant_type=client_credentials&scope=assets%3Aread';
      if (run('client_credentials')) {
        // ours and the peer's, alternately, so that both see the same drift of the machine
        const peerSecret = randomSecret();
        const peer = await startPeer('oidc-peer.mjs', ['bench-peer-client', peerSecret]);
        const ours: number[] = [];
        const theirs: number[] = [];
        const durables: number[] = [];
        try {
          for (let round = 1; round <= ROUNDS; round++) {
            const suffix = ROUNDS > 1 ? `_round${round}` : '';
            const cc = await profiled(`client_credentials${suffix}`, () =>
              measure(`client_credentials${suffix}`, (seconds) => ({
                url: `${base}/API/auth/v1/oauth/token/`,
                seconds,
                method: 'POST',
                headers: { ...FORM, Authorization: clientAuth },
                body: ccBody,
              })),
            );
            const peerCc = await measure(
              `peer_client_credentials${suffix}`,
              (seconds) => ({
                url: `${peer.base}/token`,
                seconds,
                method: 'POST',
                headers: { ...FORM, Authorization: basic('bench-peer-client', peerSecret) },
                body: ccBody,
              }),
              peer.pid,
            );
            const durableCc = await measure(
              `durable_peer_client_credentials${suffix}`,
              (seconds) => ({
                url: `${durable!.base}/token`,
                seconds,
                method: 'POST',
                headers: { ...FORM, Authorization: durableAuth },
                body: ccBody,
              }),
              durable!.pid,
            );
            results.push(cc, peerCc, durableCc);
            ours.push(cc.rps);
            theirs.push(peerCc.rps);
            durables.push(durableCc.rps);
          }
        } finally {
          peer.stop();
        }
        console.log(`client_credentials_median_rps=${median(ours).toFixed(0)}`);
        console.log(`peer_client_credentials_median_rps=${median(theirs).toFixed(0)}`);
        console.log(
          `client_credentials_vs_peer_ratio=${median(ours.map((o, i) => o / theirs[i])).toFixed(3)}`,
        );
        console.log(`cc_vs_durable_peer=${median(ours.map((o, i) => o / durables[i])).toFixed(3)}`);
      }
      if (run('refresh_token')) {
        const oauthTokens = app.get(OAuthTokensService);
        const ds = app.get(DataSource);
        const mintRefreshTokens = async () => {
          const out: string[] = [];
          for (let i = 0; i < CONNECTIONS; i++) {
            const issued = await ds.transaction((em) =>
              oauthTokens.issue(
                em,
                {
                  appId: client.id as string,
                  userId: adminId,
                  systemDomainId: login.system_domain_id as string,
                  scopes: ['assets:read'],
                  grantId: randomUUID(),
                },
                true,
              ),
            );
            out.push(issued.refresh_token as string);
          }
          return out;
        };
        // the rotation here and on the durable peer, alternately; each run starts fresh chains
        const rotations: number[] = [];
        const peerRotations: number[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          const suffix = ROUNDS > 1 ? `_round${round}` : '';
          const refresh = await profiled(`refresh_token${suffix}`, () =>
            measure(`refresh_token${suffix}`, async (seconds) => ({
              url: `${base}/API/auth/v1/oauth/token/`,
              seconds,
              method: 'POST',
              headers: { ...FORM, Authorization: clientAuth },
              chain: { body: 'grant_type=refresh_token', initial: await mintRefreshTokens() },
            })),
          );
          const durableRefresh = await measure(
            `durable_peer_refresh_token${suffix}`,
            async (seconds) => ({
              url: `${durable!.base}/token`,
              seconds,
              method: 'POST',
              headers: { ...FORM, Authorization: durableAuth },
              chain: {
                body: 'grant_type=refresh_token',
                initial: (await (
                  await fetch(`${durable!.base}/bench/refresh-tokens?n=${CONNECTIONS}`)
                ).json()) as string[],
              },
            }),
            durable!.pid,
          );
          results.push(refresh, durableRefresh);
          rotations.push(refresh.rps);
          peerRotations.push(durableRefresh.rps);
        }
        console.log(
          `refresh_vs_durable_peer=${median(rotations.map((r, i) => r / peerRotations[i])).toFixed(3)}`,
        );
      }
      const profiledMeasure = (name: string, load: Parameters<typeof measure>[1]) =>
        profiled(name, () => measure(name, load));
      if (run('login')) {
        results.push(
          ...(await loginPhase({
            app,
            base,
            domainId: login.system_domain_id as string,
            rounds: ROUNDS,
            measure: profiledMeasure,
          })),
        );
      }
      if (run('scale')) {
        results.push(
          ...(await scalePhase({
            app,
            databaseUrl: databaseUrl(dbName),
            base,
            domainId: login.system_domain_id as string,
            pat,
            patId: (JSON.parse(Buffer.from(pat.split('.')[1], 'base64url').toString()) as { id: string }).id,
            clientAuth,
            rounds: ROUNDS,
            measure: profiledMeasure,
          })),
        );
      }
      if (run('search')) {
        results.push(
          ...(await searchPhase({
            app,
            config,
            base,
            adminToken,
            adminId,
            domainId: login.system_domain_id as string,
            measure: (name, load) => profiled(name, () => measure(name, load)),
          })),
        );
      }
    } finally {
      durable?.stop();
    }
    if (run('upload')) results.push(...(await uploadPhase({ base, adminToken, storageDir })));
    // the service's resident set, sampled during its measured runs (the peers and the load are other processes)
    console.log(`rss_mb_under_load=${maxRssMb().toFixed(0)}`);
    if (!results.every((r) => r.ok)) {
      console.error('bench: some responses were not 2xx (see *_non2xx / *_errors)');
      exitCode = 1;
    }
  } finally {
    await app.close();
    setService(null);
    await server.close();
  }
} finally {
  await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(storageDir, { recursive: true, force: true });
}
clearTimeout(deadline);
process.exit(exitCode);
