import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../../delivery/audit/audit.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type { PartnerAccessDto, PartnerAccessGrantedDto } from './dto/partner-access.dto.js';
import { MembershipsRepository } from './memberships.repository.js';
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
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly memberships: MembershipsRepository,
  ) {}

  async grant(auth: AuthContext, body: PartnerAccessDto): Promise<PartnerAccessGrantedDto> {
    this.customerOnly(auth, body);
    return this.memberships.transaction(async (em) => {
      await this.memberships.lockDomain(em, body.customer_domain_id);
      const partnerType = await this.memberships.liveDomainType(em, body.partner_domain_id);
      if (!partnerType) throw UsersErrors.PARTNER_NOT_FOUND();
      if (partnerType !== 'PARTNER' || body.partner_domain_id === body.customer_domain_id) {
        throw UsersErrors.PARTNER_NOT_PARTNER();
      }
      const added = await this.memberships.grantPartnerAccess(
        em,
        body.customer_domain_id,
        body.partner_domain_id,
        auth.userId,
      );
      await this.record(em, auth, body, added, 'create');
      return { ...body, users_added: added.length };
    });
  }

  async revoke(auth: AuthContext, body: PartnerAccessDto): Promise<void> {
    this.customerOnly(auth, body);
    await this.memberships.transaction(async (em) => {
      await this.memberships.lockDomain(em, body.customer_domain_id);
      if (!(await this.memberships.deletePartnerGrant(em, body.customer_domain_id, body.partner_domain_id))) {
        throw UsersErrors.PARTNER_NO_ACCESS();
      }
      const removed = await this.memberships.removePartnerMembers(
        em,
        body.customer_domain_id,
        body.partner_domain_id,
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
