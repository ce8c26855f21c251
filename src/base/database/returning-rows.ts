/** TypeORM returns `[rows, affected]` for UPDATE … RETURNING on PostgreSQL; tolerate a bare row list too. */
export function returningRows<T>(result: unknown): T[] {
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return (result ?? []) as T[];
}
