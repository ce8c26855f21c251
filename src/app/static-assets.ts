import { createHash } from 'node:crypto';
import { PAGE_STYLE } from '../base/common/html/page-style.js';
import { PAGE_SCRIPTS } from '../base/common/html/page-scripts.js';

/** One asset the service serves under /API/auth/static/. */
export interface StaticAsset {
  contentType: string;
  bytes: Buffer;
  /** SHA-256 of the bytes, hex: the ETag, and (its first 12 characters) the hashed name's part. */
  sha256: string;
  /** Whether the name asked for carries the content hash (then it never changes: cached for a year). */
  hashed: boolean;
}

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2f5bea"/><path d="M8 10h16v3H8zm0 5h16v3H8zm0 5h16v3H8z" fill="#fff"/></svg>`;

const SOURCES: { name: string; ext: string; contentType: string; text: string }[] = [
  { name: 'portcullis', ext: 'css', contentType: 'text/css; charset=utf-8', text: PAGE_STYLE.trim() + '\n' },
  { name: 'favicon', ext: 'svg', contentType: 'image/svg+xml', text: FAVICON },
  // the passkey pages' scripts (base/common/html/page-scripts.ts), under the same two names each
  ...PAGE_SCRIPTS.map((s) => ({
    name: s.name,
    ext: 'js',
    contentType: 'text/javascript; charset=utf-8',
    text: s.text,
  })),
];

/**
 * The fixed set of assets, made at load from the pages' own sources. Each is served under its plain name
 * (`portcullis.css`) and under a name carrying its content hash (`portcullis.<12 hex>.css`). A request names
 * an asset by an exact key of this map: no path is ever built from the request, so `..`, encoded separators,
 * absolute paths and NUL can only miss.
 */
const ASSETS: ReadonlyMap<string, StaticAsset> = new Map(
  SOURCES.flatMap((s) => {
    const bytes = Buffer.from(s.text, 'utf8');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const base = { contentType: s.contentType, bytes, sha256 };
    return [
      [`${s.name}.${s.ext}`, { ...base, hashed: false }],
      [`${s.name}.${sha256.slice(0, 12)}.${s.ext}`, { ...base, hashed: true }],
    ] as [string, StaticAsset][];
  }),
);

export function staticAsset(filename: string): StaticAsset | undefined {
  return ASSETS.get(filename);
}
