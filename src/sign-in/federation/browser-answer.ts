import type { Request, Response } from 'express';
import { ApiError } from '../../base/common/errors/api-error.js';
import { defineTemplate, LAYOUT, renderPage } from '../../base/common/html/templates.js';

/** OpenAPI: a browser route's 302. */
export const REDIRECT = {
  status: 302,
  description: 'To the identity provider (or back to the web app)',
  headers: { Location: { schema: { type: 'string', format: 'uri' } } },
};

/** OpenAPI: a browser route's refusal, JSON or (for a browser) an HTML page. */
export const BROWSER_ERROR = (status: number, description: string) => ({
  status,
  description: `${description}; an HTML page when the browser asks for text/html`,
  content: {
    'application/json': { schema: { $ref: '#/components/schemas/ErrorsDto' } },
    'text/html': { schema: { type: 'string' } },
  },
});

defineTemplate(
  '@sso-error',
  `${LAYOUT}<h1>Single sign-on failed</h1><p class="error"><%= it.message %></p><p class="muted">Go back to the sign-in page and try again, or ask your administrator.</p>`,
);

/** The page a browser sees when single sign-on did not work (never what exactly was wrong). */
export function ssoErrorPage(message: string): string {
  return renderPage('@sso-error', 'Single sign-on failed', { message });
}

/**
 * A browser step of single sign-on (SAML, OpenID): a 302 to where `run` says, never cached nor referred; an
 * ApiError is the spec's error body, or a page for a browser that asks for HTML.
 */
export async function answerBrowser(req: Request, res: Response, run: () => Promise<string>): Promise<void> {
  res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  try {
    const url = await run();
    res.status(302).location(url).end();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    res.set(e.headers ?? {});
    if (e.code) res.set('X-Error-Code', e.code);
    const message = Array.isArray(e.errors) ? e.errors.join(' ') : Object.values(e.errors).join(' ');
    if (req.accepts(['application/json', 'text/html']) === 'text/html') {
      res.status(e.status).type('text/html').send(ssoErrorPage(message));
    } else {
      res.status(e.status).json({ errors: e.errors });
    }
  }
}
