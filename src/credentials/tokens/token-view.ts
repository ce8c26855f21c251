import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { TokenOutputDto } from './dto/token.dto.js';
import type { TokenEntity } from '../../base/model/token.entity.js';
import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import { effectiveStatus, warningMessage } from '../../base/model/domain-status.js';

interface Subject {
  is_admin: boolean;
  is_super_admin: boolean;
}

type DomainFields = Pick<SystemDomainEntity, 'status' | 'type' | 'is_plg' | 'warning_message'> &
  Partial<Pick<SystemDomainEntity, 'freeze_date' | 'deactivate_date'>>;

/**
 * Token record + its user and domain → the spec's TokenOutput form. The domain's status is the one in force at
 * `now` (a passed freeze or deactivation date counts), and the warning message the one that status shows. A
 * domain from the request's token lookup already carries both; applying them again changes nothing.
 */
export function tokenView(
  t: TokenEntity,
  user: Subject,
  domain: DomainFields,
  systemDomains: string[],
  now: Date = new Date(),
): TokenOutputDto {
  const status = effectiveStatus(
    {
      status: domain.status,
      freeze_date: domain.freeze_date ?? null,
      deactivate_date: domain.deactivate_date ?? null,
    },
    now,
  );
  return {
    id: t.id,
    app_id: t.app_id,
    user_id: t.user_id,
    system_domain_id: t.system_domain_id,
    system_domains: systemDomains,
    system_domain_status: status,
    system_domain_type: domain.type,
    system_domain_is_plg: domain.is_plg,
    system_domain_warning_message: warningMessage(status, domain.warning_message ?? null),
    is_admin: user.is_admin || user.is_super_admin,
    is_mfa_authenticated: t.is_mfa_authenticated,
    is_super_admin: user.is_super_admin,
    is_super_admin_light: false,
    kind: t.kind,
    scopes: t.scopes,
    expires: wireDate(t.expires),
    revoked_at: wireDateOrNull(t.revoked_at),
    last_used_at: wireDateOrNull(t.last_used_at),
    date_created: wireDate(t.date_created),
    date_modified: wireDate(t.date_modified),
  };
}
