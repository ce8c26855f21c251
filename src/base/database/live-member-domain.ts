import type { EntityManager } from 'typeorm';
import { liveDomainSql } from '../model/domain-status.js';
import { SystemDomainEntity } from '../model/system-domain.entity.js';

/**
 * A live domain the user is a member of, or null: where a sign-in that owes a second factor may be
 * completed (the second factors' repository and the passkeys' each call it, so both judge a domain alike).
 */
export function liveMemberDomain(
  em: EntityManager,
  userId: string,
  domainId: string,
): Promise<SystemDomainEntity | null> {
  return em
    .getRepository(SystemDomainEntity)
    .createQueryBuilder('d')
    .innerJoin('user_system_domains', 'm', 'm.system_domain_id = d.id AND m.user_id = :userId', { userId })
    .where(liveDomainSql('d'))
    .andWhere('d.id = :id', { id: domainId })
    .getOne();
}
