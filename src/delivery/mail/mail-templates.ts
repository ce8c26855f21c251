/** Escapes text for HTML element content and double-quoted attributes. */
function esc(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface LinkMail {
  /** Paragraphs before the link (plain text; escaped in the HTML part). */
  intro: string[];
  /** The button's label, e.g. "Accept the invitation". */
  action: string;
  /** An absolute link built from PUBLIC_BASE_URL. */
  link: string;
  /** Paragraphs after the link. */
  outro: string[];
}

/**
 * A mail that asks the reader to follow one link: the plain-text part and the HTML part from the same
 * words. Every value is escaped in the HTML part (a domain or inviter name cannot inject markup), and the
 * link is only ever an http(s) URL.
 */
export function linkMail(m: LinkMail): { body: string; html: string } {
  if (!/^https?:\/\//.test(m.link)) throw new Error('mail links are absolute http(s) URLs');
  const body = [...m.intro, '', `${m.action}: ${m.link}`, '', ...m.outro].join('\n');
  const p = (t: string) => `<p style="margin:0 0 16px;line-height:1.45">${esc(t)}</p>`;
  const html = `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d2330;background:#f4f5f7;margin:0;padding:24px">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:32px">
${m.intro.map(p).join('\n')}
<p style="margin:24px 0"><a href="${esc(m.link)}" style="background:#2f5bea;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${esc(m.action)}</a></p>
<p style="margin:0 0 16px;font-size:.85rem;color:#5b6375">Or open this address: ${esc(m.link)}</p>
${m.outro.map(p).join('\n')}
</div></body></html>`;
  return { body, html };
}
