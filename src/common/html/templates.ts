import { Eta } from 'eta';

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

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:420px;margin:8vh auto;background:#fff;border-radius:12px;padding:32px;box-shadow:0 2px 12px #0002}
h1{font-size:1.3rem;margin:0 0 12px}p{line-height:1.45}ul{padding-left:1.2em}li{margin:6px 0}
label{display:block;margin:12px 0 4px;font-weight:600}input[type=email],input[type=password]{width:100%;padding:10px;border:1px solid #c4c9d4;border-radius:6px;box-sizing:border-box}
.actions{display:flex;gap:12px;margin-top:24px}button{flex:1;padding:10px;border-radius:6px;border:1px solid #2f5bea;font-size:1rem;cursor:pointer}
.allow{background:#2f5bea;color:#fff}.deny{background:#fff;color:#2f5bea}.error{color:#b00020}.muted{color:#5b6375;font-size:.9rem}
code{background:#eef0f4;padding:1px 4px;border-radius:4px}`;

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
