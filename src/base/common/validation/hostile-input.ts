import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { RequestErrors } from '../errors/request.errors.js';

/** Deeper than any body of this API needs; class-transformer recurses, so depth is bounded before it runs. */
export const MAX_INPUT_DEPTH = 32;

/**
 * The first thing wrong with a parsed input (body, query or path parameters), or null. Walks iteratively, so
 * the check itself cannot overflow the stack:
 * - nesting deeper than MAX_INPUT_DEPTH;
 * - a NUL character in any string or key (PostgreSQL text cannot hold it);
 * - an unpaired UTF-16 surrogate in any string or key (not a character: encoders and validators choke on it).
 * The answer names the offending field as a dot path.
 */
export function findHostileInput(value: unknown): { field: string | null; problem: string } | null {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop() as { v: unknown; path: string; depth: number };
    if (typeof v === 'string') {
      const bad = badString(v);
      if (bad) return { field: path || null, problem: bad };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      return { field: null, problem: `is nested more than ${MAX_INPUT_DEPTH} levels deep` };
    }
    for (const [k, child] of Object.entries(v)) {
      const bad = badString(k);
      const childPath = path ? `${path}.${k}` : k;
      if (bad)
        return {
          field: path || null,
          problem: `has a field name that ${bad.replace(/^must not contain/, 'contains')}`,
        };
      stack.push({ v: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}

// code units, not code points (no `u` flag): a high surrogate not followed by a low one, or a low one alone
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function badString(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(s)) return 'must not contain unpaired UTF-16 surrogates';
  return null;
}

const WHERE: Partial<Record<ArgumentMetadata['type'], string>> = {
  body: 'Request body',
  query: 'Query string',
  param: 'Path',
};

/**
 * The first global pipe: every body, query and path parameter passes here before validation, so no route
 * can forget it. A hostile input is a 400 in the spec's error shape and reaches no service.
 */
@Injectable()
export class HostileInputPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const where = WHERE[metadata.type];
    if (!where) return value;
    const found = findHostileInput(value);
    if (!found) return value;
    const field = found.field ?? (metadata.type === 'param' ? metadata.data : undefined);
    throw field
      ? RequestErrors.INVALID({ [field]: found.problem })
      : RequestErrors.HOSTILE(`${where} ${found.problem}`);
  }
}
