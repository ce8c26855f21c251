import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../../delivery/audit/audit.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import { ALL_ROLES, type Role } from '../../base/common/auth/roles.js';
import { Clock } from '../../base/common/clock.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { linkMail } from '../../delivery/mail/mail-templates.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import { effectiveStatus } from '../../base/model/domain-status.js';
import { assertSeat, lockDomain } from '../../accounts/users/seat-limits.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type {
  InvitationLinkDto,
  InvitationLinkRequestDto,
  InvitationRegisterDto,
  InvitationRegisteredDto,
  InvitationTokenStateDto,
} from './dto/invitation-link.dto.js';
import type { InvitationLinkEntity } from '../../base/model/invitation-link.entity.js';
import { INVITATION_TTL_MS } from './invitations.service.js';
import { InvitationsErrors } from './invitations.errors.js';
import { InvitationsRepository } from './invitations.repository.js';

const REGISTERED =
  'If this address may join, an invitation was mailed to it: open the link in that mail to finish';

/**
 * Reusable invitation links for a group, and the domain's purge of outstanding invitations.
 *
 * A link never admits anyone by itself: registering with it (email, names, token) makes an ordinary
 * single-use invitation carrying what the link grants and mails it to that address, so the person still
 * proves the address (and, for an existing account, its password) through the mailed link
 * (InvitationsService.complete). The answer is the same whether the address has an account, is a member
 * already, or has an invitation pending, so a link's holder learns nothing about addresses.
 */
@Injectable()
export class InvitationLinksService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly clock: Clock,
    private readonly mail: MailService,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly repo: InvitationsRepository,
  ) {}

  /**
   * A new link: its groups are the caller's domain's; a link grants nothing the caller does not hold (the
   * groups' roles must be the caller's, is_admin needs an administrator). Valid for 7 days.
   */
  async request(auth: AuthContext, body: InvitationLinkRequestDto): Promise<InvitationLinkDto> {
    const groupIds = [...new Set([body.primary_group, ...(body.groups ?? [])])];
    const isAdmin = body.is_admin ?? false;
    if (isAdmin && !auth.isAdmin && !auth.isSuperAdmin) throw InvitationsErrors.LINK_ADMIN_ONLY();
    return this.repo.transaction(async (em) => {
      const groups = await this.repo.linkGroups(em, auth.systemDomainId, groupIds);
      if (groups.length !== groupIds.length) throw InvitationsErrors.GROUP_NOT_FOUND();
      if (!auth.isAdmin && !auth.isSuperAdmin) {
        const granted = new Set(groups.flatMap((g) => g.roles));
        const beyond = ALL_ROLES.filter((r) => granted.has(r) && !auth.roles.has(r as Role));
        if (beyond.length) throw InvitationsErrors.LINK_EXCEEDS_ROLES(beyond);
      }
      const token = generateSecret();
      const link = await this.repo.insertLink(em, {
        system_domain_id: auth.systemDomainId,
        created_by_user_id: auth.userId,
        primary_group_id: body.primary_group,
        group_ids: groupIds.filter((id) => id !== body.primary_group),
        is_admin: isAdmin,
        type: body.type ?? 'STANDARD',
        secret_sha256: sha256Hex(token),
        expires: new Date(this.clock.now().getTime() + INVITATION_TTL_MS),
      });
      const view = {
        id: link.id,
        system_domain_id: link.system_domain_id,
        primary_group: link.primary_group_id,
        groups: link.group_ids,
        is_admin: link.is_admin,
        type: link.type,
        expires: wireDate(link.expires),
      };
      await this.event(em, auth.systemDomainId, auth.requestId, link.id, 'create', view);
      await this.audit.change(
        em,
        auth,
        'invitation.link_created',
        { type: 'invitation_link', id: link.id },
        {
          is_admin: isAdmin,
          groups: groupIds.length,
        },
      );
      return { ...view, token, invite_link: this.inviteLink(token) };
    });
  }

  /** The page the invitee follows, beside the mailed links (`/invitation/{secret}`) of the same web app. */
  private inviteLink(token: string): string {
    return `${this.config.http.publicBaseUrl}/invitation/register?hash=${encodeURIComponent(token)}`;
  }

  /** What a token is, without using it: 404 unknown, 419 expired or spent (or its domain is gone). */
  async validate(token: string): Promise<InvitationTokenStateDto> {
    const hash = sha256Hex(token);
    const link = await this.link(this.repo.manager, hash);
    if (link) return this.state('link', link.system_domain_id, link.type, link.expires);
    const invitation = await this.repo.invitationByHash(this.repo.manager, hash);
    if (!invitation) throw InvitationsErrors.NOT_FOUND();
    if (invitation.accepted_at) throw InvitationsErrors.LINK_EXPIRED();
    return this.state('invitation', invitation.system_domain_id, invitation.type, invitation.expires);
  }

  /**
   * Registration through a link: a single-use invitation for `email` carrying the link's type, groups and
   * is_admin, mailed to that address; it holds a seat of its type (the domain's limits apply here). Nothing
   * is made for a member of the domain or an address with a pending invitation (that one stands).
   */
  async register(body: InvitationRegisterDto, requestId: string | null): Promise<InvitationRegisteredDto> {
    const peek = await this.link(this.repo.manager, sha256Hex(body.token));
    if (!peek) throw InvitationsErrors.NOT_FOUND();
    const domainId = peek.system_domain_id;
    const secret = generateSecret();
    await this.repo.transaction(async (em) => {
      await lockDomain(em, domainId);
      const domain = await this.repo.domainOrFail(em, domainId);
      if (effectiveStatus(domain, this.clock.now()) === 'FROZEN') throw AuthErrors.DOMAIN_FROZEN();
      const link = await this.link(em, sha256Hex(body.token)); // again, under the domain's lock (purge)
      if (!link) throw InvitationsErrors.LINK_EXPIRED();
      if (await this.repo.emailTaken(em, domainId, body.email)) return;
      await assertSeat(em, domainId, link.type, { now: this.clock.now(), countPending: true });
      const expires = new Date(this.clock.now().getTime() + INVITATION_TTL_MS);
      const invitation = await this.repo.insertInvitation(em, {
        system_domain_id: domainId,
        email: body.email,
        first_name: body.first_name,
        last_name: body.last_name ?? null,
        type: link.type,
        user_id: null,
        inviter_user_id: link.created_by_user_id,
        reset_hash_sha256: sha256Hex(secret),
        group_ids: [link.primary_group_id, ...link.group_ids],
        is_admin: link.is_admin,
        expires,
        accepted_at: null,
      });
      await this.mail.queue(em, {
        kind: 'invitation',
        to: body.email,
        subject: `Your invitation to ${domain.name}`,
        ...linkMail({
          intro: [`You asked to join ${domain.name} with an invitation link.`],
          action: 'Accept the invitation',
          link: `${this.config.http.publicBaseUrl}/invitation/${secret}`,
          outro: [
            `The link works once and expires on ${expires.toISOString()}. If you did not ask for this, ignore this mail.`,
          ],
        }),
      });
      await this.events.record(em, {
        systemDomainId: domainId,
        objectId: invitation.id,
        realm: 'invitation',
        operation: 'create',
        eventType: 'invitations',
        data: { id: invitation.id, email: invitation.email, type: invitation.type, link_id: link.id },
        requestId,
      });
    });
    return { email: body.email, system_domain_id: domainId, detail: REGISTERED };
  }

  /**
   * Purge: every invitation of the caller's domain that was not accepted (pending or expired: their links stop
   * working) and every invitation link of the domain (expired or not). Accepted invitations stay as history.
   */
  async purge(auth: AuthContext): Promise<void> {
    await this.repo.transaction(async (em) => {
      await lockDomain(em, auth.systemDomainId);
      const { invitations, links } = await this.repo.purge(em, auth.systemDomainId);
      for (const id of invitations) {
        await this.event(em, auth.systemDomainId, auth.requestId, id, 'delete', { id }, 'invitation');
      }
      for (const id of links) {
        await this.event(em, auth.systemDomainId, auth.requestId, id, 'delete', { id });
      }
      await this.audit.change(
        em,
        auth,
        'invitation.purged',
        { type: 'system_domain', id: auth.systemDomainId },
        {
          invitations: invitations.length,
          links: links.length,
        },
      );
    });
  }

  /** The link behind a digest, if it is unexpired and its domain is live. */
  private async link(em: EntityManager, hash: string): Promise<InvitationLinkEntity | null> {
    const id = await this.repo.liveLinkId(em, hash);
    if (!id) return null;
    const link = await this.repo.linkOrFail(em, id);
    if (new Date(link.expires).getTime() <= this.clock.now().getTime())
      throw InvitationsErrors.LINK_EXPIRED();
    return link;
  }

  private async state(
    kind: 'link' | 'invitation',
    systemDomainId: string,
    type: InvitationTokenStateDto['type'],
    expires: Date,
  ): Promise<InvitationTokenStateDto> {
    if (new Date(expires).getTime() <= this.clock.now().getTime()) throw InvitationsErrors.LINK_EXPIRED();
    const name = await this.repo.liveDomainName(systemDomainId);
    if (name === undefined) throw InvitationsErrors.LINK_EXPIRED();
    return {
      valid: true,
      kind,
      system_domain_id: systemDomainId,
      system_domain_name: name,
      type,
      expires: wireDate(expires),
    };
  }

  private event(
    em: EntityManager,
    systemDomainId: string,
    requestId: string | null,
    objectId: string,
    operation: 'create' | 'delete',
    data: Record<string, unknown>,
    realm: 'invitation' | 'invitation_link' = 'invitation_link',
  ): Promise<void> {
    return this.events.record(em, {
      systemDomainId,
      objectId,
      realm,
      operation,
      eventType: 'invitations',
      data,
      requestId,
    });
  }
}
