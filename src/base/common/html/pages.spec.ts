import { emailLoginPage } from '../../../sign-in/login/email-login-page.js';
import { ssoErrorPage } from '../../../sign-in/federation/browser-answer.js';
import {
  AUTHORIZATION_PARAMS,
  consentPage,
  errorPage,
  loginPage,
  secondFactorPage,
  ssoRedirectPage,
} from '../../../sign-in/oauth/consent/consent-pages.js';
import { render } from './templates.js';
import { passkeyScriptTags } from './page-scripts.js';
import type { OtpType } from '../../../sign-in/login/mfa-policy.js';

/** A hostile value per field, told apart by its number: it breaks out of element content and of both quotes. */
const hostile = (n: number) => `</p>"'><script>alert(${n})</script><img src=x onerror=alert(${n})>&x`;
const escaped = (n: number) =>
  `&lt;/p&gt;&quot;&#39;&gt;&lt;script&gt;alert(${n})&lt;/script&gt;&lt;img src=x onerror=alert(${n})&gt;&amp;x`;

/** Renders a page with hostile values from `next()`; checks each one is in the page only escaped. */
function expectEveryFieldEscaped(renderPage: (next: () => string) => string): void {
  let n = 0;
  const html = renderPage(() => hostile(++n));
  expect(n).toBeGreaterThan(0);
  for (let i = 1; i <= n; i++) {
    expect(html).toContain(escaped(i));
    expect(html).not.toContain(`alert(${i})</script>`);
    expect(html).not.toContain(`<img src=x onerror=alert(${i})`);
  }
  // no script but the service's own, loaded by name from its static assets (page-scripts.ts)
  const own = passkeyScriptTags().map((src) => `<script src="${src}"></script>`);
  expect(own.reduce((rest, tag) => rest.split(tag).join(''), html)).not.toMatch(/<script/i);
}

const request = (next: () => string) =>
  Object.fromEntries(AUTHORIZATION_PARAMS.map((k) => [k, next()])) as Record<string, string>;

describe('HTML pages: every templated field escaped', () => {
  it('the error page (title, detail, note)', () => {
    expectEveryFieldEscaped((v) => errorPage(v(), v(), v()));
  });

  it('the sign-in page (app name, error, every request field and the CSRF token, in both forms)', () => {
    expectEveryFieldEscaped((v) => loginPage(v(), request(v), v(), v()));
  });

  it('the single sign-on redirect (the URL in a meta refresh and a link)', () => {
    expectEveryFieldEscaped((v) => ssoRedirectPage(v()));
  });

  it('the consent page (app name and URL, email, scopes, request fields, CSRF token)', () => {
    expectEveryFieldEscaped((v) =>
      consentPage(
        { name: v(), url: v() },
        v(),
        [
          { name: v(), description: v() },
          { name: v(), description: v() },
        ],
        request(v),
        v(),
      ),
    );
  });

  it('the second-factor page (app name, error, info, methods, request fields, CSRF token)', () => {
    expectEveryFieldEscaped((v) =>
      secondFactorPage(
        v(),
        request(v),
        v(),
        { codes: ['TOTP', v() as OtpType, 'MAIL_2SV'], passkey: true },
        { error: v(), info: v() },
      ),
    );
  });

  it('the single sign-on error page and the mailed-link page', () => {
    expectEveryFieldEscaped((v) => ssoErrorPage(v()));
    expectEveryFieldEscaped((v) => emailLoginPage(v()));
  });

  it('hidden fields escape names as well as values, and leave out undefined ones', () => {
    const html = render('@hidden', { fields: { [hostile(1)]: hostile(2), gone: undefined } });
    expect(html).toBe(`<input type="hidden" name="${escaped(1)}" value="${escaped(2)}">`);
  });

  it('text that needs no escaping is left as it is (no double escaping)', () => {
    expect(errorPage('Request refused', 'Use “quotes” & <tags>', 'ok')).toContain(
      '<h1 class="error">Request refused</h1><p>Use “quotes” &amp; &lt;tags&gt;</p>',
    );
  });
});
