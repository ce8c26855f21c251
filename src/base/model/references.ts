import { JoinColumn, ManyToOne, type ObjectType, type RelationOptions } from 'typeorm';

/** A reference's relation options, and the name of its foreign key where the table gives it one. */
export interface ReferenceOptions extends RelationOptions {
  /** Left out: TypeORM names the key (a hash of the table and the column). */
  foreignKey?: string;
}

/**
 * A many-to-one relation kept in the column `column` (which the entity declares as a column of its own too),
 * with its foreign key: ON DELETE CASCADE unless `options` say otherwise. TypeORM's `@ManyToOne` and
 * `@JoinColumn` in one decorator, so that a reference is one line:
 *
 *     @Column({ type: 'uuid' }) system_domain_id!: string;
 *     @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
 */
export function References<T>(
  target: () => ObjectType<T>,
  column: string,
  options: ReferenceOptions = {},
): PropertyDecorator {
  const { foreignKey, ...relationOptions } = options;
  const relation = ManyToOne(target, { onDelete: 'CASCADE', ...relationOptions });
  const join = JoinColumn({ name: column, foreignKeyConstraintName: foreignKey });
  return (entity, property) => {
    // the order TypeScript applies the two when written one above the other: the join column first
    join(entity, property as string);
    relation(entity, property as string);
  };
}
