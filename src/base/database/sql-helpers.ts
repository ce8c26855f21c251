/** `%`, `_` and `\` match literally inside an ILIKE pattern built from user input. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, '\\$&');

/** PostgreSQL's unique_violation: the database's answer when a check-then-insert loses a race. */
export const isUniqueViolation = (e: unknown): boolean => (e as { code?: string }).code === '23505';
export const isForeignKeyViolation = (e: unknown): boolean => (e as { code?: string }).code === '23503';
