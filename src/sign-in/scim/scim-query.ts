import SCIMMY from 'scimmy';
import { ScimError } from '../../base/common/errors/scim-error.js';
import { isUuid } from '../../base/common/validation/uuid.js';
import type { Narrowing } from './scim.repository.js';
import { MAX_RESULTS, SCIM } from './scim-schemas.js';

/** A list request's parameters as RFC 7644 §3.4.2 names them (query string or a POST /.search body). */
export interface ScimListQuery {
  filter?: string;
  startIndex?: string | number;
  count?: string | number;
  attributes?: string;
  excludedAttributes?: string;
}

/** Where a resource type's case-insensitive attributes (RFC 7643: caseExact false) and look-up keys are. */
export interface ResourceKeys {
  /** Top-level attributes compared without case ("userName", "displayName"). */
  folded: string[];
  /** Multi-valued attributes whose `value` is compared without case ("emails"). */
  foldedValues: string[];
  /** The attribute an `eq` narrows by key ("userName", "displayName"), and by value ("emails"). */
  key: string;
  keyValues?: string;
}

type Expression = Record<string, unknown>;

/** The parsed filter (scimmy's), its comparisons of case-insensitive attributes folded to lower case. */
export function parseFilter(text: string | undefined, keys: ResourceKeys): SCIMMY.Types.Filter | null {
  if (text === undefined || text.trim() === '') return null;
  // scimmy's parser lets a dangling logical operator through (`userName eq "x" and`)
  let end = text.length;
  while (end > 0 && (text[end - 1] === ')' || /\s/.test(text[end - 1]))) end--;
  if (/(^|\s)(and|or|not)$/i.test(text.slice(Math.max(0, end - 4), end)))
    throw new ScimError(400, 'The filter is not valid: it ends in a logical operator', 'invalidFilter');
  let parsed: SCIMMY.Types.Filter;
  try {
    parsed = new SCIMMY.Types.Filter(text);
  } catch (e) {
    throw new ScimError(400, `The filter is not valid: ${(e as Error).message}`, 'invalidFilter');
  }
  const branches = [...(parsed as unknown as Expression[])];
  // scimmy takes some strings that are no filter (`[]`) as an empty branch, which would match everything
  if (
    !branches.length ||
    branches.some((b) => !b || typeof b !== 'object' || Array.isArray(b) || !Object.keys(b).length)
  )
    throw new ScimError(400, 'The filter is not valid: it compares no attribute', 'invalidFilter');
  try {
    return new SCIMMY.Types.Filter(branches.map((branch) => foldExpression(branch, keys)));
  } catch (e) {
    throw new ScimError(400, `The filter is not valid: ${(e as Error).message}`, 'invalidFilter');
  }
}

/** A comparison's values in lower case; an attribute compared twice in one branch is a list of comparisons. */
function foldComparison(c: unknown): unknown {
  if (!Array.isArray(c)) return c;
  return c.map((v) =>
    Array.isArray(v) ? foldComparison(v) : typeof v === 'string' && !OPERATORS.has(v) ? v.toLowerCase() : v,
  );
}
const OPERATORS = new Set(['not', 'eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le', 'pr', 'np']);

function foldExpression(branch: Expression, keys: ResourceKeys): Expression {
  const out: Expression = {};
  for (const [attr, c] of Object.entries(branch)) {
    const name = attr.toLowerCase();
    if (keys.folded.some((f) => f.toLowerCase() === name)) out[attr] = foldComparison(c);
    else if (
      keys.foldedValues.some((f) => f.toLowerCase() === name) &&
      c &&
      typeof c === 'object' &&
      !Array.isArray(c)
    ) {
      out[attr] = Object.fromEntries(
        Object.entries(c as Expression).map(([k, v]) => [
          k,
          k.toLowerCase() === 'value' ? foldComparison(v) : v,
        ]),
      );
    } else out[attr] = c;
  }
  return out;
}

/**
 * The ids, keys and external ids that every branch of the filter names with an `eq` (what the database can
 * narrow the candidates to before the filter runs on each), or null when a branch names none.
 */
export function narrowing(filter: SCIMMY.Types.Filter | null, keys: ResourceKeys): Narrowing | null {
  if (!filter) return null;
  const n: Narrowing = { ids: [], keys: [], externalIds: [] };
  for (const branch of filter as unknown as Expression[]) {
    let found = false;
    for (const [attr, c] of Object.entries(branch)) {
      const name = attr.toLowerCase();
      const eq = (x: unknown): string | null =>
        Array.isArray(x) && x[0] === 'eq' && typeof x[1] === 'string' ? x[1] : null;
      const sub = c && typeof c === 'object' && !Array.isArray(c) ? (c as Expression) : null;
      const value =
        name === keys.keyValues?.toLowerCase() && sub
          ? eq(Object.entries(sub).find(([k]) => k.toLowerCase() === 'value')?.[1])
          : eq(c);
      if (value === null) continue;
      if (name === 'id') n.ids.push(value);
      else if (name === keys.key.toLowerCase() || name === keys.keyValues?.toLowerCase()) n.keys.push(value);
      else if (name === 'externalid') n.externalIds.push(value);
      else continue;
      found = true;
    }
    if (!found) return null;
  }
  // ids that are no UUID name nothing (and would fail the uuid[] cast)
  n.ids = n.ids.filter(isUuid);
  return n;
}

/** The resources the filter matches, compared with case-insensitive attributes folded to lower case. */
export function matching<T extends Record<string, unknown>>(
  resources: T[],
  filter: SCIMMY.Types.Filter | null,
  keys: ResourceKeys,
): T[] {
  if (!filter) return resources;
  // a comparison of a sub-attribute (`name.givenName`) needs its complex attribute present, if empty
  const complex = new Set(
    (filter as unknown as Expression[]).flatMap((branch) =>
      Object.entries(branch)
        .filter(([, c]) => c && typeof c === 'object' && !Array.isArray(c))
        .map(([attr]) => attr),
    ),
  );
  const folded = resources.map((r) => {
    const out = foldResource(r, keys);
    for (const attr of complex) {
      const key = Object.keys(out).find((k) => k.toLowerCase() === attr.toLowerCase());
      if (key === undefined) out[attr] = {};
    }
    return out;
  });
  let hits: Set<unknown>;
  try {
    hits = new Set(filter.match(folded));
  } catch (e) {
    throw new ScimError(400, `The filter cannot be applied: ${(e as Error).message}`, 'invalidFilter');
  }
  return resources.filter((_, i) => hits.has(folded[i]));
}

function foldResource(r: Record<string, unknown>, keys: ResourceKeys): Record<string, unknown> {
  const out: Record<string, unknown> = { ...r };
  for (const f of keys.folded) if (typeof out[f] === 'string') out[f] = (out[f] as string).toLowerCase();
  for (const f of keys.foldedValues) {
    const list = out[f];
    if (Array.isArray(list))
      out[f] = list.map((v: Record<string, unknown>) =>
        typeof v?.value === 'string' ? { ...v, value: v.value.toLowerCase() } : v,
      );
  }
  return out;
}

/** RFC 7644 §3.4.2.4: 1-based startIndex (below 1 is 1), count at most MAX_RESULTS (negative is 0). */
export function paging(q: ScimListQuery): { startIndex: number; count: number } {
  const int = (v: unknown, d: number) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (v !== undefined && v !== '' && Number.isNaN(n))
      throw new ScimError(400, 'startIndex and count must be integers', 'invalidValue');
    return Number.isNaN(n) ? d : n;
  };
  return {
    startIndex: Math.max(1, int(q.startIndex, 1)),
    count: Math.min(MAX_RESULTS, Math.max(0, int(q.count, 100))),
  };
}

/** A ListResponse of one page of `all`. */
export function listResponse<T>(all: T[], page: { startIndex: number; count: number }) {
  const Resources = all.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  return {
    schemas: [SCIM.list],
    totalResults: all.length,
    startIndex: page.startIndex,
    itemsPerPage: Resources.length,
    Resources,
  };
}

/**
 * RFC 7644 §3.9: `attributes` (only these, with id and schemas) or `excludedAttributes` (all but these), as
 * scimmy's projection filter for a schema's outbound form; null: the default set.
 */
export function projection(q: ScimListQuery): SCIMMY.Types.Filter | null {
  const names = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const only = names(q.attributes);
  const without = names(q.excludedAttributes);
  if (!only.length && !without.length) return null;
  try {
    return only.length
      ? new SCIMMY.Types.Filter(only.map((a) => `${a} pr`).join(' and '))
      : new SCIMMY.Types.Filter(without.map((a) => `${a} np`).join(' and '));
  } catch {
    throw new ScimError(400, 'attributes and excludedAttributes must name attributes', 'invalidValue');
  }
}
