/**
 * The `Content-Range` of a resumable upload request: a chunk (`bytes S-E/N` or `bytes S-E/*`), or a status
 * query (`bytes *\/N` or `bytes *\/*`). Anything else is null (a 400).
 */
export type ParsedRange =
  | { kind: 'chunk'; start: number; end: number; total: number | null }
  | { kind: 'status'; total: number | null };

const CHUNK = /^bytes (\d{1,16})-(\d{1,16})\/(\d{1,16}|\*)$/;
const STATUS = /^bytes \*\/(\d{1,16}|\*)$/;

export function parseContentRange(header: string): ParsedRange | null {
  const h = header.trim();
  const s = STATUS.exec(h);
  if (s) return { kind: 'status', total: s[1] === '*' ? null : Number(s[1]) };
  const c = CHUNK.exec(h);
  if (!c) return null;
  const start = Number(c[1]);
  const end = Number(c[2]);
  const total = c[3] === '*' ? null : Number(c[3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return null;
  if (total !== null && (!Number.isSafeInteger(total) || end >= total)) return null;
  return { kind: 'chunk', start, end, total };
}

/** A download's `Range: bytes=…` (one range), against `size`: the range, 'unsatisfiable', or null (ignored). */
export function parseByteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d{0,16})-(\d{0,16})$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
