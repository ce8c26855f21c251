import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * What every feature repository shares (`src/<feature>/<feature>.repository.ts`): the data source, its
 * manager for statements outside a transaction, and a transaction on it for the services that hold the rules.
 * Subclasses declare no constructor: Nest reads the injected data source from this one.
 */
export abstract class FeatureRepository {
  constructor(@InjectDataSource() protected readonly ds: DataSource) {}

  get manager(): EntityManager {
    return this.ds.manager;
  }

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  /** A fresh query builder (`alias`) over one domain's rows of `entity`, for pageList and cursorPage. */
  protected domainQuery<E extends ObjectLiteral>(
    entity: EntityTarget<E>,
    alias: string,
    systemDomainId: string,
  ): SelectQueryBuilder<E> {
    return this.ds
      .getRepository(entity)
      .createQueryBuilder(alias)
      .where(`${alias}.system_domain_id = :domainId`, { domainId: systemDomainId });
  }
}
