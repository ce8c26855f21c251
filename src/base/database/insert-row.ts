import type { DeepPartial, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Inserts a row: the entity, with what the insert generated (its id, its creation date). */
export async function insertRow<T extends ObjectLiteral>(
  em: EntityManager,
  target: EntityTarget<T>,
  fields: DeepPartial<NoInfer<T>>,
): Promise<T> {
  const row = em.create(target, fields);
  await em.insert(target, row);
  return row;
}
