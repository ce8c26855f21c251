import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';

/**
 * A company's OpenID Connect provider inside the tests: panva's oidc-provider (v9) on 127.0.0.1 over plain
 * http, code flow with PKCE S256 required, its development login form (any password) and consent granted
 * without a page, so that our service, as relying party, meets a certified provider rather than a fake of
 * our own making. Keys can be rotated, id_tokens forged, and the token endpoint's next id_token tampered with.
 */
export interface OpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** RS256 unless set */
  id_token_signed_response_alg?: 'RS256' | 'ES256';
}

export interface OpAccount {
  /** What the login form takes; also the account's `sub`. */
  login: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
  groups?: string[];
}

export type IdTokenClaims = JWTPayload & Record<string, unknown>;
export type IdTokenTamper = (
  claims: IdTokenClaims,
) => IdTokenClaims | string | Promise<IdTokenClaims | string>;

export interface SignOptions {
  /** 'current': the provider's own private key (the default); 'foreign': a key the provider never published. */
  key?: 'current' | 'foreign';
  alg?: 'RS256' | 'ES256';
  /** The header's kid; by default that of the provider's current key of `alg`, also for a foreign key. */
  kid?: string;
}

export interface OidcOp {
  /** `http://127.0.0.1:<port>`; stays the same across rotateKeys(). */
  readonly issuer: string;
  /** The public keys the provider publishes now (RS256 first, then ES256). */
  readonly jwks: { keys: JWK[] };
  /** Adds the account, or replaces the one with the same login: claims are read at every token request. */
  addAccount(account: OpAccount): void;
  /**
   * Drives the front channel as a browser would, from our service's authorization URL: follows the provider's
   * redirects with a cookie jar, signs `login` in on the login form, confirms consent if asked, and returns the
   * first redirect that leaves the provider's origin (our callback, with code and state, or error) unfollowed.
   * Each call is a new browser unless a jar is passed (then the provider's session carries over); `prompts`
   * receives the name of every page the provider showed ('login', 'consent').
   */
  authorize(url: string, login: string, opts?: { jar?: CookieJar; prompts?: string[] }): Promise<string>;
  /** A new provider behind the same port and issuer with new keys: the old keys, sessions and codes are gone. */
  rotateKeys(): Promise<void>;
  signIdToken(claims: IdTokenClaims, opts?: SignOptions): Promise<string>;
  /**
   * The next successful token response has its id_token passed through `fn`: claims it returns are signed again
   * with the current key (same alg and kid), a string replaces the id_token as it is.
   */
  tamperNextIdToken(fn: IdTokenTamper): void;
  stop(): Promise<void>;
}

export interface OidcOpOptions {
  clients: OpClient[];
  /** false: the provider's consent page is shown (authorize() confirms it); by default consent is given. */
  autoConsent?: boolean;
}

interface SigningKey {
  alg: 'RS256' | 'ES256';
  kid: string;
  privateKey: KeyObject;
  publicJwk: JWK;
}

async function makeKey(alg: 'RS256' | 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(jwk);
  return { alg, kid, privateKey, publicJwk: { ...jwk, kid, alg, use: 'sig' } };
}

const makeKeys = () => Promise.all([makeKey('RS256'), makeKey('ES256')]);

/**
 * oidc-provider announces its development defaults (and, on Node 20, the runtime it prefers) with console.warn
 * and console.info; those lines are dropped while it loads and while a provider is built, everything else is
 * passed on. Counted, so that providers started side by side restore the console once.
 */
// (coloured on a terminal, so matched anywhere in the line)
const PROVIDER_NOTICE = /oidc-provider (WARNING|NOTICE): /;
let quietDepth = 0;
let loud: Pick<Console, 'warn' | 'info'> | undefined;
async function quietly<T>(fn: () => T | Promise<T>): Promise<T> {
  if (quietDepth++ === 0) {
    loud = { warn: console.warn, info: console.info };
    const keep =
      (write: (...args: unknown[]) => void) =>
      (...args: unknown[]) => {
        if (typeof args[0] !== 'string' || !PROVIDER_NOTICE.test(args[0])) write.apply(console, args);
      };
    console.warn = keep(loud.warn);
    console.info = keep(loud.info);
  }
  try {
    return await fn();
  } finally {
    if (--quietDepth === 0 && loud) Object.assign(console, loud);
  }
}

// oidc-provider ships no types, and loading it is what prints its runtime notice: hence the dynamic import
const PROVIDER_MODULE: string = 'oidc-provider';
let providerClass: Promise<any> | undefined;
const loadProvider = () => (providerClass ??= quietly(() => import(PROVIDER_MODULE).then((m) => m.default)));

interface KoaContext {
  path: string;
  method: string;
  status: number;
  body: unknown;
}

export async function startOidcOp(opts: OidcOpOptions): Promise<OidcOp> {
  const Provider = await loadProvider();
  const accounts = new Map<string, OpAccount>();
  const tampers: IdTokenTamper[] = [];
  const foreign = await makeKeys();
  let keys = await makeKeys();
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sign = (claims: IdTokenClaims, key: SigningKey, kid: string) =>
    new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid }).sign(key.privateKey);

  async function signIdToken(claims: IdTokenClaims, o: SignOptions = {}): Promise<string> {
    const alg = o.alg ?? 'RS256';
    const own = keys.find((k) => k.alg === alg)!;
    const key = o.key === 'foreign' ? foreign.find((k) => k.alg === alg)! : own;
    return sign(claims, key, o.kid ?? own.kid);
  }

  async function tamper(ctx: KoaContext, next: () => Promise<void>) {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (ctx.method !== 'POST' || ctx.path !== '/token' || ctx.status !== 200) return;
    if (typeof body?.id_token !== 'string' || tampers.length === 0) return;
    const fn = tampers.shift()!;
    const { alg, kid } = decodeProtectedHeader(body.id_token);
    const out = await fn(decodeJwt(body.id_token) as IdTokenClaims);
    const key = keys.find((k) => k.alg === alg);
    if (typeof out !== 'string' && !key) throw new Error(`oidc-op: no current key for ${alg}`);
    ctx.body = { ...body, id_token: typeof out === 'string' ? out : await sign(out, key!, kid ?? key!.kid) };
  }

  async function startProvider() {
    const provider = await quietly(() => new Provider(issuer, providerConfig(opts, accounts, keys)));
    provider.use(tamper);
    handler = provider.callback();
  }
  await startProvider();

  return {
    issuer,
    get jwks() {
      return { keys: keys.map((k) => ({ ...k.publicJwk })) };
    },
    addAccount(account) {
      accounts.set(account.login, { ...account });
    },
    authorize: (url, login, o) =>
      driveFrontChannel(issuer, url, login, o?.jar ?? new CookieJar(), o?.prompts ?? [], accounts.has(login)),
    async rotateKeys() {
      keys = await makeKeys();
      await startProvider();
    },
    signIdToken,
    tamperNextIdToken(fn) {
      tampers.push(fn);
    },
    async stop() {
      handler = undefined;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function providerConfig(opts: OidcOpOptions, accounts: Map<string, OpAccount>, keys: SigningKey[]) {
  return {
    clients: opts.clients.map((c) => ({
      grant_types: ['authorization_code'],
      response_types: ['code'],
      ...c,
    })),
    // one key per alg: oidc-provider signs with the key of the client's id_token_signed_response_alg
    jwks: {
      keys: keys.map((k) => ({
        ...(k.privateKey.export({ format: 'jwk' }) as JWK),
        kid: k.kid,
        alg: k.alg,
        use: 'sig',
      })),
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'groups'],
    // groups come with openid as well as with their own scope, as company providers send them by configuration
    claims: {
      openid: ['sub', 'groups'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
      groups: ['groups'],
    },
    // the claims of the granted scopes go into the id_token too, not only to userinfo
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      if (!accounts.has(id)) return undefined;
      return {
        accountId: id,
        async claims() {
          const a = accounts.get(id)!;
          const name = [a.given_name, a.family_name].filter(Boolean).join(' ');
          return {
            sub: id,
            email: a.email,
            email_verified: a.email_verified,
            ...(a.given_name === undefined ? {} : { given_name: a.given_name }),
            ...(a.family_name === undefined ? {} : { family_name: a.family_name }),
            ...(name ? { name } : {}),
            ...(a.groups === undefined ? {} : { groups: a.groups }),
          };
        },
      };
    },
    // consent without a page: the grant is given whatever OpenID scopes and claims the request asks for
    async loadExistingGrant(ctx: any) {
      const { oidc } = ctx;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (opts.autoConsent === false) return existing;
      const grant =
        existing ??
        new oidc.provider.Grant({ accountId: oidc.account.accountId, clientId: oidc.client.clientId });
      grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
      const claims = [...oidc.requestParamClaims];
      if (claims.length) grant.addOIDCClaims(claims);
      await grant.save();
      return grant;
    },
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) =>
      client.redirectUris.some((uri) => URL.canParse(uri) && new URL(uri).origin === origin),
    ttl: {
      AccessToken: 3600,
      IdToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 3600,
    },
    async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
      ctx.type = 'text';
      ctx.body = `oidc-op error: ${JSON.stringify(out)}`;
    },
  };
}

/** The provider's cookies as a browser keeps them: by name and path, sent to requests under that path. */
export class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = (n: string) => attrs.find((a) => a.toLowerCase().startsWith(`${n}=`))?.slice(n.length + 1);
      const path = attr('path') ?? '/';
      const expires = attr('expires');
      const gone = value === '' || attr('max-age') === '0' || (expires && Date.parse(expires) <= Date.now());
      if (gone) this.cookies.delete(`${name};${path}`);
      else this.cookies.set(`${name};${path}`, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter(
        (c) =>
          url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

const unescapeHtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39|#x27|#x2F);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", '#x2F': '/' })[e]!,
  );

/** The page's form: its action and the values of its inputs (the login form has prompt, login, password). */
function parseForm(html: string, base: URL): { action: URL; fields: Map<string, string> } | undefined {
  const form = /<form\b[^>]*\baction="([^"]*)"/i.exec(html);
  if (!form) return undefined;
  const fields = new Map<string, string>();
  for (const [tag] of html.matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(tag)?.[1];
    if (name) fields.set(name, unescapeHtml(/\bvalue="([^"]*)"/i.exec(tag)?.[1] ?? ''));
  }
  return { action: new URL(unescapeHtml(form[1]), base), fields };
}

async function driveFrontChannel(
  issuer: string,
  start: string,
  login: string,
  jar: CookieJar,
  prompts: string[],
  known: boolean,
): Promise<string> {
  const origin = new URL(issuer).origin;
  let url = new URL(start);
  let post: URLSearchParams | undefined;
  let loginsSent = 0;
  for (let step = 0; step < 20; step++) {
    if (url.origin !== origin) return url.href;
    const cookie = jar.header(url);
    const res = await fetch(url, {
      method: post ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(post ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: post,
    });
    jar.store(res.headers.getSetCookie());
    post = undefined;
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      url = new URL(location, url);
      continue;
    }
    const text = await res.text();
    const form = res.status === 200 ? parseForm(text, url) : undefined;
    const prompt = form?.fields.get('prompt');
    if (!form || (prompt !== 'login' && prompt !== 'consent')) {
      throw new Error(`oidc-op: ${url.href} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    prompts.push(prompt);
    if (prompt === 'login') {
      // an unknown account would end the devInteractions flow on a server_error page: refuse it at the form,
      // as a company's provider would; a second login page means the provider did not take the first
      if (!known || loginsSent++ > 0) {
        throw new Error(`oidc-op: the provider refused the login ${JSON.stringify(login)}`);
      }
      form.fields.set('login', login);
      form.fields.set('password', 'any password: devInteractions check none');
    }
    url = form.action;
    post = new URLSearchParams([...form.fields]);
  }
  throw new Error(`oidc-op: no redirect off the provider after 20 steps (last ${url.href})`);
}
