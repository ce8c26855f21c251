import { Injectable } from '@nestjs/common';
import { type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { StorageEntity } from '../../base/model/storage.entity.js';
import { insertRow } from '../../base/database/insert-row.js';

/** The storages' rows: the built-in ones, a domain's own, and which one each purpose resolves to. */
@Injectable()
export class StoragesRepository extends FeatureRepository {
  /** Creates the built-in storage of a purpose unless one exists: whether it was created. */
  async ensureBuiltinStorage(
    name: string,
    method: string,
    purpose: string,
    settings: object,
  ): Promise<boolean> {
    // raw: INSERT … ON CONFLICT on a partial unique index (one per purpose, whatever the instances starting)
    const [, created] = (await this.ds.query(
      `INSERT INTO storages (name, method, purpose, settings, is_default, status, scanner_status)
       VALUES ($1, $2, $3, $4, true, 'ACTIVE', 'INACTIVE')
       ON CONFLICT (purpose) WHERE system_domain_id IS NULL AND is_default DO NOTHING`,
      [name, method, purpose, JSON.stringify(settings)],
    )) as [unknown, number];
    return Boolean(created);
  }

  /** The storage each purpose resolves to for a domain: its own default, else the built-in one. */
  async defaultStorageIds(systemDomainId: string): Promise<string[]> {
    // raw: SELECT DISTINCT ON (purpose) … ORDER BY purpose, (system_domain_id IS NULL)
    const rows: { id: string }[] = await this.ds.query(
      `SELECT DISTINCT ON (purpose) id FROM storages
        WHERE is_default AND status = 'ACTIVE' AND (system_domain_id IS NULL OR system_domain_id = $1)
        ORDER BY purpose, (system_domain_id IS NULL)`,
      [systemDomainId],
    );
    return rows.map((r) => r.id);
  }

  /** The storages a domain sees (the built-in ones and its own), of one purpose if given: for pageList. */
  visibleQuery(systemDomainId: string, purpose: string | undefined): SelectQueryBuilder<StorageEntity> {
    const qb = this.ds
      .getRepository(StorageEntity)
      .createQueryBuilder('s')
      .where('(s.system_domain_id IS NULL OR s.system_domain_id = :d)', { d: systemDomainId });
    if (purpose) qb.andWhere('s.purpose = :p', { p: purpose });
    return qb;
  }

  /** The ACTIVE default storage of a purpose for a domain: its own first, else the built-in one. */
  async defaultOf(
    em: EntityManager,
    purpose: string,
    systemDomainId: string,
  ): Promise<StorageEntity | undefined> {
    const [row] = await em
      .getRepository(StorageEntity)
      .createQueryBuilder('s')
      .where('s.purpose = :purpose AND s.is_default AND s.status = :active', { purpose, active: 'ACTIVE' })
      .andWhere('(s.system_domain_id IS NULL OR s.system_domain_id = :d)', { d: systemDomainId })
      .orderBy('s.system_domain_id IS NULL', 'ASC')
      .limit(1)
      .getMany();
    return row;
  }

  async byId(em: EntityManager, id: string): Promise<StorageEntity | null> {
    return em.findOneBy(StorageEntity, { id });
  }

  /** Inserts a domain's storage: its id. */
  async insert(em: EntityManager, values: Partial<StorageEntity>): Promise<string> {
    return (await insertRow(em, StorageEntity, values)).id;
  }

  async update(em: EntityManager, id: string, changes: Partial<StorageEntity>): Promise<void> {
    await em.update(StorageEntity, { id }, changes);
  }

  /** No storage of the domain is the default of the purpose any more. */
  async clearDefault(em: EntityManager, systemDomainId: string, purpose: string): Promise<void> {
    await em.update(StorageEntity, { system_domain_id: systemDomainId, purpose }, { is_default: false });
  }
}
