/**
 * The typed readers of environment variables: each returns the value (or the default) and records a problem
 * instead of throwing, so one start-up message names every bad variable. Shared by every config loader.
 */
export function envReader(env: NodeJS.ProcessEnv, problems: string[]) {
  const str = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const int = (name: string, def: number, min: number, max: number): number => {
    const v = str(name);
    if (v === null) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${v}")`);
      return def;
    }
    return n;
  };
  const num = (name: string, def: number, min: number, max: number): number => {
    const v = str(name);
    if (v === null) return def;
    const n = Number(v);
    if (!/^\d+(\.\d+)?$/.test(v) || n < min || n > max) {
      problems.push(`${name} must be a number from ${min} to ${max} (got "${v}")`);
      return def;
    }
    return n;
  };
  const bool = (name: string, def: boolean): boolean => {
    const v = str(name);
    if (v === null) return def;
    if (['1', 'true', 'yes'].includes(v.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(v.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${v}")`);
    return def;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const v = str(name);
    if (v === null) return null;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol))
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${u.protocol}")`);
    } catch {
      problems.push(`${name} must be a URL`);
    }
    return v;
  };
  return { str, int, num, bool, url };
}
