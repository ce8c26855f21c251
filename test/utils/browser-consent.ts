import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { bearer } from './auth.js';
import { createTestApp, type TestApp } from './create-test-app.js';
import { exchangeCode, OAUTH, type OAuthApp } from './oauth.js';
import { freePort } from './oauth-interop-helpers.js';

/**
 * What the consent-page browser suites share (federated-browser, passkey-browser): the application known to the
 * browser as `localhost` (Chromium resolves it to loopback itself; an IP address would be no WebAuthn RP ID and
 * the same site as a provider on 127.0.0.1), and the last step of an authorization, Allow and the code's exchange.
 */

/** The application listening on 127.0.0.1, its PUBLIC_BASE_URL `http://localhost:<port>`. */
export async function startAppAsLocalhost(): Promise<{ t: TestApp; base: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const t = await createTestApp({ PUBLIC_BASE_URL: base });
    try {
      await t.app.listen(port, '127.0.0.1');
      return { t, base };
    } catch (e) {
      await t.close().catch(() => undefined);
      // another process took the port between freePort() and listen(): try another one
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw e;
    }
  }
}

/**
 * On the consent screen: Allow → the redirect target (`targetOrigin`, path /callback) with the request's state
 * and a code, which exchanges for a token of `user` for `client` with `scope`.
 */
export async function allowAndExchange(
  x: { t: TestApp; page: Page; targetOrigin: string; scope: string },
  client: OAuthApp,
  a: { state: string; verifier: string },
  user: UserEntity,
): Promise<void> {
  const { t, page } = x;
  await Promise.all([
    page.waitForURL((u) => u.origin === x.targetOrigin),
    page.getByRole('button', { name: 'Allow' }).click(),
  ]);
  const landed = new URL(page.url());
  expect(landed.pathname).toBe('/callback');
  expect(landed.searchParams.get('state')).toBe(a.state);
  const code = landed.searchParams.get('code');
  expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  const tokens = await exchangeCode(t, client, code!, a.verifier).expect(200);
  expect(tokens.body.scope).toBe(x.scope);
  const me = await t.http.get(OAUTH.validate).set(bearer(tokens.body.access_token)).expect(200);
  expect(me.body).toMatchObject({ user_id: user.id, app_id: client.id });
}

/**
 * A journey failed: saves what the browser shows under `dir` (a screenshot, and its URL and text, then
 * `extra`: the console, say) and names the files in the error, which the caller throws on.
 */
export async function savePageOf(
  page: Page,
  dir: string,
  name: string,
  e: unknown,
  extra = '',
): Promise<void> {
  const file = `${dir}/${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${file}.png`, fullPage: true }).catch(() => undefined);
  const text = await page
    .locator('body')
    .innerText({ timeout: 1000 })
    .catch(() => '(no page)');
  writeFileSync(`${file}.txt`, `${page.url()}\n\n${text}\n${extra}`);
  if (e instanceof Error) e.message += `\n(browser at ${page.url()}; page saved as ${file}.png/.txt)`;
}
