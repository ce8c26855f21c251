/**
 * What an update of an asset or a collection writes: of `keys`, the fields `body` sets (undefined: not sent)
 * to a value other than `current`'s. Empty when the body changes nothing.
 */
export function changedFields<E extends object, K extends keyof E>(
  body: { [P in K]?: unknown },
  current: E,
  keys: readonly K[],
): Partial<E> {
  const changes: Partial<E> = {};
  for (const key of keys) {
    if (body[key] !== undefined && body[key] !== current[key]) {
      (changes as Record<K, unknown>)[key] = body[key];
    }
  }
  return changes;
}
