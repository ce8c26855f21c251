import type { Request } from 'express';
import { findHostileInput } from '../../base/common/validation/hostile-input.js';
import { invalidRequest } from './oauth.errors.js';

/**
 * The form of an OAuth endpoint: application/x-www-form-urlencoded only (RFC 6749 §3.2), each parameter at
 * most once, empty values treated as absent (§3.1), no NUL or unpaired surrogate (as every other input).
 */
export function readForm(req: Request): Record<string, string | undefined> {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw invalidRequest('The request body must be application/x-www-form-urlencoded');
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const hostile = findHostileInput(body);
  if (hostile) throw invalidRequest(`Parameter ${hostile.field ?? 'name'} ${hostile.problem}`);
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(body)) {
    if (Array.isArray(v)) throw invalidRequest(`Parameter ${k} is repeated`);
    if (typeof v !== 'string') throw invalidRequest(`Parameter ${k} is malformed`);
    out[k] = v === '' ? undefined : v;
  }
  return out;
}

/** A request parameter's text, or undefined when it is absent, empty (RFC 6749 §3.1) or not text (repeated). */
export function given(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
