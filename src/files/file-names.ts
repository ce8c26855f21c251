/**
 * A file's name and directory are the client's labels, never a path the service opens (bytes live under
 * keys made from ids), and are still held to what a file system would accept, so no client of this API can
 * be handed a traversal by another: a name is one segment without "/", "\", NUL or control characters and is
 * not "." or ".."; a directory is relative and has no "." or ".." segment.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function fileNameProblem(name: string): string | null {
  if (CONTROL.test(name)) return 'must not contain control characters';
  if (/[/\\]/.test(name)) return 'must be a single name, without "/" or "\\"';
  if (name === '.' || name === '..') return 'must not be "." or ".."';
  return null;
}

export function directoryProblem(dir: string): string | null {
  if (dir === '') return null;
  if (CONTROL.test(dir)) return 'must not contain control characters';
  if (dir.includes('\\')) return 'must use "/" between segments';
  if (dir.startsWith('/') || /^[A-Za-z]:/.test(dir)) return 'must be relative';
  const segments = dir.replace(/\/+$/, '').split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === ''))
    return 'must not have ".", ".." or empty segments';
  return null;
}
