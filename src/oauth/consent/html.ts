/** Escapes text for HTML element content and double-quoted attributes. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:420px;margin:8vh auto;background:#fff;border-radius:12px;padding:32px;box-shadow:0 2px 12px #0002}
h1{font-size:1.3rem;margin:0 0 12px}p{line-height:1.45}ul{padding-left:1.2em}li{margin:6px 0}
label{display:block;margin:12px 0 4px;font-weight:600}input[type=email],input[type=password]{width:100%;padding:10px;border:1px solid #c4c9d4;border-radius:6px;box-sizing:border-box}
.actions{display:flex;gap:12px;margin-top:24px}button{flex:1;padding:10px;border-radius:6px;border:1px solid #2f5bea;font-size:1rem;cursor:pointer}
.allow{background:#2f5bea;color:#fff}.deny{background:#fff;color:#2f5bea}.error{color:#b00020}.muted{color:#5b6375;font-size:.9rem}
code{background:#eef0f4;padding:1px 4px;border-radius:4px}`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Portcullis</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export function hiddenFields(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
}
