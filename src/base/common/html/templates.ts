import { Eta } from 'eta';
import { PAGE_STYLE as STYLE } from './page-style.js';

/**
 * The server-rendered pages (consent, second factor, errors, single sign-on, the mailed sign-in link) go
 * through one template engine, Eta, with auto-escaping on: `<%= … %>` escapes & < > " ' for element content
 * and quoted attributes alike, and nothing is raw unless written `<%~ … %>`, which only the layout (the
 * rendered page body, our own style sheet) and the partials use. Templates are strings in the modules that
 * render them (no files to ship beside the build) and are compiled once, at load.
 */
const eta = new Eta({ autoEscape: true, autoTrim: false, cache: true, useWith: false });

/** Registers template `name` (it must start with `@`), compiled now. */
export function defineTemplate(name: `@${string}`, source: string): void {
  eta.loadTemplate(name, source);
}

/** Renders a template defined with defineTemplate. */
export function render(name: `@${string}`, data: object): string {
  return eta.render(name, data);
}

/**
 * The layout of every page: `title` (escaped) and `body` (the page template's own output, already escaped
 * where it holds data). The style sheet is inline: the pages' CSP allows `style-src 'unsafe-inline'` and
 * nothing else, no script at all.
 */
defineTemplate(
  '@page',
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title><%= it.title %> · Portcullis</title><style><%~ it.style %></style></head><body><main><%~ it.body %></main></body></html>`,
);

/** Hidden form fields from `it.fields` (name → value; undefined values are left out). */
defineTemplate(
  '@hidden',
  `<% for (const [name, value] of Object.entries(it.fields)) { if (value !== undefined) { %><input type="hidden" name="<%= name %>" value="<%= value %>"><% } } %>`,
);

/** The first line of every page template: its output becomes the layout's `body` (the layout sees `it` too). */
export const LAYOUT = `<% layout('@page') %>`;

/** Renders page template `name` in the layout with `title`. */
export function renderPage(name: `@${string}`, title: string, data: object): string {
  return render(name, { ...data, title, style: STYLE });
}
