import { JoinColumn, ManyToOne, type ObjectType, type RelationOptions } from 'typeorm';

/**
 * A many-to-one relation kept in the column `column` (which the entity declares as a column of its own too),
 * with its foreign key: ON DELETE CASCADE unless `options` say otherwise (they then replace the default
 * whole). TypeORM's `@ManyToOne` and `@JoinColumn` in one decorator, so that a reference is one line:
 *
 *     @Column({ type: 'uuid' }) system_domain_id!: string;
 *     @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
 */
export function References<T>(
  target: () => ObjectType<T>,
  column: string,
  options: RelationOptions = { onDelete: 'CASCADE' },
): PropertyDecorator {
  const relation = ManyToOne(target, options);
  const join = JoinColumn({ name: column });
  return (entity, property) => {
    // the order TypeScript applies the two when written one above the other: the join column first
    join(entity, property as string);
    relation(entity, property as string);
  };
}
