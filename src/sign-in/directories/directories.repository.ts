import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { DirectoryEntity } from '../../base/model/federation.entity.js';
import { IdentityProviderDomainEntity } from '../../base/model/identity-provider.entity.js';

/** The statements of directories (DirectoriesService, DirectoryLoginService). */
@Injectable()
export class DirectoriesRepository extends FeatureRepository {
  /** The filtered list query of one domain's directories (pageList adds sorting and the page). */
  listQuery(systemDomainId: string) {
    return this.ds
      .getRepository(DirectoryEntity)
      .createQueryBuilder('r')
      .addSelect('r.bind_password_sealed')
      .where('r.system_domain_id = :systemDomainId', { systemDomainId });
  }

  /** One of the domain's directories (with its sealed password: the view says whether there is one). */
  inDomain(id: string, systemDomainId: string): Promise<DirectoryEntity | null> {
    return this.listQuery(systemDomainId).andWhere('r.id = :id', { id }).getOne();
  }

  /** A directory with its sealed service account password (for a connection only). */
  withSecret(id: string): Promise<DirectoryEntity | null> {
    return this.ds
      .getRepository(DirectoryEntity)
      .createQueryBuilder('r')
      .addSelect('r.bind_password_sealed')
      .where('r.id = :id', { id })
      .getOne();
  }

  /** The sealed password as stored (kept by an update that does not name it). */
  async sealedPassword(id: string): Promise<string | null> {
    return (await this.withSecret(id))?.bind_password_sealed ?? null;
  }

  /** A domain's enabled directories, oldest first (the one a named domain signs in with is the first). */
  enabledOf(systemDomainId: string): Promise<DirectoryEntity[]> {
    return this.ds.getRepository(DirectoryEntity).find({
      where: { system_domain_id: systemDomainId, enabled: true },
      order: { date_created: 'ASC', id: 'ASC' },
    });
  }

  save(em: EntityManager, row: DirectoryEntity): Promise<DirectoryEntity> {
    return em.save(DirectoryEntity, row);
  }

  async remove(em: EntityManager, id: string): Promise<void> {
    await em.delete(DirectoryEntity, { id });
  }

  /** The email domains bound to these directories. */
  async domainsOf(ids: string[]): Promise<{ directory_id: string; domain: string }[]> {
    if (!ids.length) return [];
    const rows = await this.ds
      .getRepository(IdentityProviderDomainEntity)
      .createQueryBuilder('b')
      .select(['b.directory_id', 'b.domain'])
      .where('b.directory_id IN (:...ids)', { ids })
      .orderBy('b.domain')
      .getMany();
    return rows.map((r) => ({ directory_id: r.directory_id!, domain: r.domain }));
  }
}
