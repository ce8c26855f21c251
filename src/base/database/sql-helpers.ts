import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** `%`, `_` and `\` match literally inside an ILIKE pattern built from user input. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, '\\$&');

/** Keeps the rows where one of `columns` contains `text` (case-insensitive, taken literally); all without it. */
export function whereContains<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  columns: string[],
  text: string | undefined,
): SelectQueryBuilder<E> {
  if (text)
    qb.andWhere(`(${columns.map((c) => `${c} ILIKE :q`).join(' OR ')})`, { q: `%${escapeLike(text)}%` });
  return qb;
}

/** PostgreSQL's unique_violation: the database's answer when a check-then-insert loses a race. */
export const isUniqueViolation = (e: unknown): boolean => (e as { code?: string }).code === '23505';
export const isForeignKeyViolation = (e: unknown): boolean => (e as { code?: string }).code === '23503';
