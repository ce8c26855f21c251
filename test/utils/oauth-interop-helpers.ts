import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from './create-test-app.js';

/**
 * Helpers for the suites that talk to the service over real HTTP on loopback (oauth-interop, oauth-browser):
 * a listening app whose PUBLIC_BASE_URL (the RFC 8414 issuer) is its own address, a minimal cookie jar, a
 * form-driven walk through the consent page, and a recording redirect target.
 */

/** A port nobody is listening on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ListeningApp {
  t: TestApp;
  port: number;
  /** `http://127.0.0.1:<port>`: PUBLIC_BASE_URL, hence the issuer. */
  base: string;
  close(): Promise<void>;
}

/** The real application listening on 127.0.0.1, its issuer equal to the address clients use. */
export async function startListeningApp(env: Record<string, string> = {}): Promise<ListeningApp> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const t = await createTestApp({ PUBLIC_BASE_URL: base, ...env });
    try {
      await t.app.listen(port, '127.0.0.1');
      return { t, port, base, close: () => t.close() };
    } catch (e) {
      await t.close().catch(() => undefined);
      // another process took the port between freePort() and listen(): try another one
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw e;
    }
  }
}

/** Signs in through the real login endpoint; returns the login token. */
export async function apiLogin(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/API/auth/v1/auth/simple/login/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 201) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export interface CreatedApp {
  id: string;
  name: string;
  client_secret?: string;
  redirect_uris: string[];
  allowed_scopes: string[];
  [field: string]: unknown;
}

/** Registers an application through `POST /API/auth/v1/apps/` (the caller must be an administrator). */
export async function createAppViaApi(
  base: string,
  adminToken: string,
  body: Record<string, unknown>,
): Promise<CreatedApp> {
  const res = await fetch(`${base}/API/auth/v1/apps/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${adminToken}` },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`app creation failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedApp;
}

/** Just enough of a browser's cookie store for one origin: name → value, deletions honoured. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0];
      const i = pair.indexOf('=');
      if (i <= 0) continue;
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = /;\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(line);
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** The hidden inputs of the page's form, unescaped (the page escapes every value it writes). */
export function hiddenInputs(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    out[m[1]] = m[2].replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e]);
  }
  return out;
}

export interface ConsentWalk {
  /** Where the decision sent the browser (the client's redirect URI with code or error, state and iss). */
  callback: URL;
  /** Status, HTML and headers of each page seen on the way. */
  pages: { step: string; status: number; html: string; headers: Headers }[];
}

/**
 * What a person does in a browser, done with fetch and cookies: open the consent page, sign in with the
 * form (csrf hidden field + cookie), open the page again signed in, press Allow or Deny, read the 303.
 */
export async function walkConsentPage(
  authorizationUrl: URL,
  credentials: { email: string; password: string },
  decision: 'allow' | 'deny' = 'allow',
): Promise<ConsentWalk> {
  const jar = new CookieJar();
  const pages: ConsentWalk['pages'] = [];
  const send = async (step: string, url: URL, form?: Record<string, string>) => {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    jar.store(res);
    const html = await res.text();
    pages.push({ step, status: res.status, html, headers: res.headers });
    return { res, html };
  };
  const expectStatus = (step: string, res: Response, html: string, status: number) => {
    if (res.status !== status) {
      throw new Error(`${step}: expected HTTP ${status}, got ${res.status}: ${html.slice(0, 500)}`);
    }
  };
  const locationOf = (step: string, res: Response) => {
    const location = res.headers.get('location');
    if (!location) throw new Error(`${step}: no Location header`);
    return new URL(location, authorizationUrl);
  };

  const signIn = await send('sign-in page', authorizationUrl);
  expectStatus('sign-in page', signIn.res, signIn.html, 200);
  const login = await send('sign in', new URL('/oauth/authorize/login', authorizationUrl), {
    ...hiddenInputs(signIn.html),
    email: credentials.email,
    password: credentials.password,
  });
  expectStatus('sign in', login.res, login.html, 303);
  const consent = await send('consent page', locationOf('sign in', login.res));
  expectStatus('consent page', consent.res, consent.html, 200);
  const decided = await send('decision', new URL('/oauth/authorize', authorizationUrl), {
    ...hiddenInputs(consent.html),
    decision,
  });
  expectStatus('decision', decided.res, decided.html, 303);
  return { callback: locationOf('decision', decided.res), pages };
}

export interface RedirectTarget {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request the target received, in order (path and query). */
  received: URL[];
  close(): Promise<void>;
}

/** A tiny HTTP server standing in for the client's redirect URI: records what it receives, answers 200. */
export async function startRedirectTarget(
  pages: Record<string, string> = {},
  port?: number,
): Promise<RedirectTarget> {
  const received: URL[] = [];
  const server: Server = createHttpServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(404).end();
      return;
    }
    received.push(url);
    const body = pages[url.pathname] ?? `<!doctype html><title>callback</title><h1>callback received</h1>`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? 0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
