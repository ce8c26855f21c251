import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The service's source files as text (src/, specs left out), for the architecture specs that hold a rule over
 * the whole tree (src/credentials/mint/architecture.spec.ts, src/sign-in/login/architecture.spec.ts): a new file that
 * breaks the rule fails there before any review. Paths are relative to src/.
 */
const SRC = new URL('../../src/', import.meta.url).pathname;

export interface SourceFile {
  path: string;
  text: string;
}

function read(dir: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return read(full);
    if (!e.name.endsWith('.ts') || e.name.endsWith('.spec.ts')) return [];
    return [{ path: relative(SRC, full), text: readFileSync(full, 'utf8') }];
  });
}

export function sourceFiles(): SourceFile[] {
  return read(SRC);
}

/** Whether `text` imports a module whose specifier matches `module`. */
export function imports(text: string, module: RegExp): boolean {
  return [...text.matchAll(/from\s+'([^']+)'/g)].some((m) => module.test(m[1]));
}
