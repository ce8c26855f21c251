import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { returningRows } from '../database/returning-rows.js';
import { liveDomainSql } from '../system-domains/domain-status.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import type { PartnerAccessDto, PartnerAccessGrantedDto } from './dto/partner-access.dto.js';
import { lockDomain } from './seat-limits.js';
import { UsersErrors } from './users.errors.js';

/**
 * Partner domain access: a customer domain lets a partner domain (type PARTNER) administer it. Granting makes
 * every ACTIVE administrator of the partner domain an administrator of the customer domain (a membership
 * marked with the partner domain, holding no seat); revoking removes exactly the memberships the grant made
 * (and their group memberships there), so their tokens stop working in the customer domain on the next
 * request. Granting again adds the partner's administrators appointed since.
 */
@Injectable()
export class PartnerAccessService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
  ) {}

  async grant(auth: AuthContext, body: PartnerAccessDto): Promise<PartnerAccessGrantedDto> {
    this.customerOnly(auth, body);
    return this.ds.transaction(async (em) => {
      await lockDomain(em, body.customer_domain_id);
      const [partner] = (await em.query(
        `SELECT d.type FROM system_domains d WHERE d.id = $1 AND ${liveDomainSql('d')}`,
        [body.partner_domain_id],
      )) as { type: string }[];
      if (!partner) throw UsersErrors.PARTNER_NOT_FOUND();
      if (partner.type !== 'PARTNER' || body.partner_domain_id === body.customer_domain_id) {
        throw UsersErrors.PARTNER_NOT_PARTNER();
      }
      await em.query(
        `INSERT INTO partner_domain_access (customer_domain_id, partner_domain_id, granted_by_user_id)
         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [body.customer_domain_id, body.partner_domain_id, auth.userId],
      );
      // raw: one INSERT … SELECT … RETURNING adds every partner administrator not already a member
      const added = returningRows<{ user_id: string }>(
        await em.query(
          `INSERT INTO user_system_domains (user_id, system_domain_id, is_admin, via_partner_domain_id)
           SELECT m.user_id, $1, true, $2 FROM user_system_domains m JOIN users u ON u.id = m.user_id
            WHERE m.system_domain_id = $2 AND m.is_admin AND u.status = 'ACTIVE'
           ON CONFLICT DO NOTHING RETURNING user_id`,
          [body.customer_domain_id, body.partner_domain_id],
        ),
      );
      await this.record(em, auth, body, added, 'create');
      return { ...body, users_added: added.length };
    });
  }

  async revoke(auth: AuthContext, body: PartnerAccessDto): Promise<void> {
    this.customerOnly(auth, body);
    await this.ds.transaction(async (em) => {
      await lockDomain(em, body.customer_domain_id);
      const grants = returningRows<{ partner_domain_id: string }>(
        await em.query(
          `DELETE FROM partner_domain_access WHERE customer_domain_id = $1 AND partner_domain_id = $2
           RETURNING partner_domain_id`,
          [body.customer_domain_id, body.partner_domain_id],
        ),
      );
      if (!grants.length) throw UsersErrors.PARTNER_NO_ACCESS();
      const removed = returningRows<{ user_id: string }>(
        await em.query(
          `DELETE FROM user_system_domains WHERE system_domain_id = $1 AND via_partner_domain_id = $2
           RETURNING user_id`,
          [body.customer_domain_id, body.partner_domain_id],
        ),
      );
      await em.query(
        `DELETE FROM group_members gm USING groups g
          WHERE g.id = gm.group_id AND g.system_domain_id = $1 AND gm.user_id = ANY($2::uuid[])`,
        [body.customer_domain_id, removed.map((r) => r.user_id)],
      );
      await this.record(em, auth, body, removed, 'delete');
    });
  }

  /** The customer domain is the caller's (a super administrator may act for any); the route needs an admin. */
  private customerOnly(auth: AuthContext, body: PartnerAccessDto): void {
    if (body.customer_domain_id !== auth.systemDomainId && !auth.isSuperAdmin) {
      throw UsersErrors.PARTNER_CUSTOMER_ONLY();
    }
  }

  private async record(
    em: EntityManager,
    auth: AuthContext,
    body: PartnerAccessDto,
    users: { user_id: string }[],
    operation: 'create' | 'delete',
  ): Promise<void> {
    for (const { user_id } of users) {
      await this.events.record(em, {
        systemDomainId: body.customer_domain_id,
        objectId: user_id,
        realm: 'user',
        operation,
        eventType: 'users',
        data: { id: user_id, via_partner_domain_id: body.partner_domain_id },
        requestId: auth.requestId,
      });
    }
    await this.audit.change(
      em,
      auth,
      'domain.changed',
      { type: 'system_domain', id: body.customer_domain_id },
      {
        partner_access: operation === 'create' ? 'granted' : 'revoked',
        partner_domain_id: body.partner_domain_id,
        users: users.length,
      },
    );
  }
}
