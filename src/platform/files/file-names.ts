import { invisibleProblem } from '../../base/common/validation/email-rules.js';

/**
 * A file's name and directory are the client's labels, never a path the service opens (bytes live under
 * keys made from ids), and are still held to what a file system would accept, so no client of this API can
 * be handed a traversal by another: a name is one segment without "/", "\", NUL or control characters and is
 * not "." or ".."; a directory is relative and has no "." or ".." segment. Both refuse what email addresses
 * refuse, invisible and text-direction characters (invisibleProblem), so a name reads as what it is.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function fileNameProblem(name: string): string | null {
  if (CONTROL.test(name)) return 'must not contain control characters';
  const invisible = invisibleProblem(name);
  if (invisible) return invisible;
  if (/[/\\]/.test(name)) return 'must be a single name, without "/" or "\\"';
  if (name === '.' || name === '..') return 'must not be "." or ".."';
  return null;
}

/**
 * A `directory_path` as published clients send it: "/" names the root and a leading "/" is from the root, as
 * the path relative to it ("/" → "", "/clips/2026" → "clips/2026"); anything else is kept as it is.
 */
export function fromRoot(dir: string): string {
  return dir.replace(/^\/+/, '');
}

export function directoryProblem(dir: string): string | null {
  if (dir === '') return null;
  if (CONTROL.test(dir)) return 'must not contain control characters';
  const invisible = invisibleProblem(dir);
  if (invisible) return invisible;
  if (dir.includes('\\')) return 'must use "/" between segments';
  if (dir.startsWith('/') || /^[A-Za-z]:/.test(dir)) return 'must be relative';
  const segments = dir.replace(/\/+$/, '').split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === ''))
    return 'must not have ".", ".." or empty segments';
  return null;
}

/**
 * A file set's name (often its file's, "clip.mp4") and base directory are labels shown like a file's: they
 * refuse invisible and text-direction characters too. Field → problem, empty when none.
 */
export function fileSetLabelProblems(body: { name?: string; base_dir?: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of ['name', 'base_dir'] as const) {
    const value = body[field];
    const problem = value === undefined ? null : invisibleProblem(value);
    if (problem) errors[field] = problem;
  }
  return errors;
}
