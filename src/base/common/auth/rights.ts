import { ALL_ROLES, DOMAIN_ROLES, isRole, type Role } from './roles.js';

/**
 * What a credential may do in the one domain it was issued for: the rank (super administrator > domain
 * administrator > user) and the roles. A caller can only obtain, directly or through an app, a credential
 * whose rights are within its own; these helpers compare and cap rights for that invariant.
 */
export interface Rights {
  isSuperAdmin: boolean;
  isAdmin: boolean;
  roles: ReadonlySet<Role>;
}

/**
 * A ceiling stored with apps and tokens: `@super` and `@admin` for the ranks, then role names. A token's
 * rights at each request are its user's current rights cut down to its ceiling, so a user promoted after the
 * ceiling was recorded does not lend the new rank to tokens minted for an app, and a demotion counts at once.
 */
export type RightsCap = string[];

const SUPER = '@super';
const ADMIN = '@admin';

export function capOf(r: Rights): RightsCap {
  return [...(r.isSuperAdmin ? [SUPER] : []), ...(r.isAdmin ? [ADMIN] : []), ...[...r.roles].sort()];
}

/** The ceiling given to apps set up before ceilings existed: a domain administrator's rights, never super. */
export const DOMAIN_ADMIN_CAP: RightsCap = [ADMIN, ...DOMAIN_ROLES];
/** Everything: for what a super administrator sets up. */
export const FULL_CAP: RightsCap = [SUPER, ADMIN, ...ALL_ROLES];

const parsed = new Map<string, readonly string[]>();

/**
 * A ceiling as the token lookup reads it (space-joined; null: none), parsed once per distinct value: there
 * are few distinct ceilings and the lookup runs on every request. The arrays are frozen and shared.
 */
export function capFromText(text: string | null): readonly string[] | null {
  if (text === null) return null;
  let cap = parsed.get(text);
  if (!cap) {
    cap = Object.freeze(text === '' ? [] : text.split(' '));
    if (parsed.size >= 1_000) parsed.clear();
    parsed.set(text, cap);
  }
  return cap;
}

const sets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The rights `r` cut down to the ceiling (null: no ceiling, a user's own sign-in). */
export function applyCap(r: Rights, cap: readonly string[] | null): Rights {
  if (!cap) return r;
  let c = sets.get(cap);
  if (!c) {
    c = new Set(cap);
    sets.set(cap, c);
  }
  return {
    isSuperAdmin: r.isSuperAdmin && c.has(SUPER),
    isAdmin: r.isAdmin && (c.has(ADMIN) || c.has(SUPER)),
    roles: new Set([...r.roles].filter((role) => (c as ReadonlySet<string>).has(role))),
  };
}

/** The tighter of two ceilings (null is no ceiling). */
export function intersectCaps(a: RightsCap | null, b: RightsCap | null): RightsCap | null {
  if (!a) return b;
  if (!b) return a;
  const other = new Set(b);
  return a.filter((x) => other.has(x));
}

/** The rights a ceiling stands for on its own. */
export function rightsOfCap(cap: readonly string[]): Rights {
  return {
    isSuperAdmin: cap.includes(SUPER),
    isAdmin: cap.includes(ADMIN) || cap.includes(SUPER),
    roles: new Set(cap.filter(isRole)),
  };
}

/** What `target` holds that `holder` does not, in words; empty when `target` is within `holder`. */
export function excess(target: Rights, holder: Rights): string[] {
  const out: string[] = [];
  if (target.isSuperAdmin && !holder.isSuperAdmin) out.push('super administrator');
  if (target.isAdmin && !holder.isAdmin) out.push('administrator');
  const roles = [...target.roles].filter((r) => !holder.roles.has(r));
  if (roles.length) out.push(`roles ${roles.sort().join(', ')}`);
  return out;
}
