/**
 * The pages' style sheet: inlined in every page (their CSP allows `style-src 'unsafe-inline'`, no other
 * source) and served as /API/auth/static/portcullis.css for anything that links it (health/static-assets.ts).
 */
export const PAGE_STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:420px;margin:8vh auto;background:#fff;border-radius:12px;padding:32px;box-shadow:0 2px 12px #0002}
h1{font-size:1.3rem;margin:0 0 12px}p{line-height:1.45}ul{padding-left:1.2em}li{margin:6px 0}
label{display:block;margin:12px 0 4px;font-weight:600}input[type=email],input[type=password]{width:100%;padding:10px;border:1px solid #c4c9d4;border-radius:6px;box-sizing:border-box}
.actions{display:flex;gap:12px;margin-top:24px}button{flex:1;padding:10px;border-radius:6px;border:1px solid #2f5bea;font-size:1rem;cursor:pointer}
.allow{background:#2f5bea;color:#fff}.deny{background:#fff;color:#2f5bea}.error{color:#b00020}.muted{color:#5b6375;font-size:.9rem}
code{background:#eef0f4;padding:1px 4px;border-radius:4px}`;
