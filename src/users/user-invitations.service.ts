import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthContext } from '../common/auth/auth-context.js';
import { generateSecret, sha256Hex } from '../common/crypto/secrets.js';
import { ApiError } from '../common/errors/api-error.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { InviteUserDto, UserSystemDomainInviteDto } from './dto/invite.dto.js';
import { InvitationEntity } from './invitation.entity.js';
import { MailService } from './mail.service.js';
import { isUniqueViolation } from '../database/sql-helpers.js';
import { UserSystemDomainEntity } from './user-system-domain.entity.js';
import { UserEntity } from './user.entity.js';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Invites an email into the caller's domain. A known email gains the membership at once; an unknown one
 * becomes an INACTIVE user without a password, who is activated when the invitation is completed (a later
 * issue). Either way the link's secret is mailed and only its SHA-256 is kept.
 */
@Injectable()
export class UserInvitationsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
  ) {}

  async invite(auth: AuthContext, body: InviteUserDto): Promise<UserSystemDomainInviteDto> {
    const domainId = auth.systemDomainId;
    const secret = generateSecret();
    const expires = new Date(Date.now() + INVITATION_TTL_MS);
    return this.ds.transaction(async (em) => {
      // locked so that a concurrent removal of this user cannot delete the account under the new membership
      let user = await em.findOne(UserEntity, {
        where: { email: body.email },
        lock: { mode: 'pessimistic_write' },
      });
      const existing = user !== null;
      if (user) {
        if (await em.existsBy(UserSystemDomainEntity, { user_id: user.id, system_domain_id: domainId })) {
          throw ApiError.conflict('This user is already a member of this domain');
        }
      } else {
        user = em.create(UserEntity, {
          email: body.email,
          first_name: body.first_name ?? null,
          last_name: body.last_name ?? null,
          password_hash: null,
          status: 'INACTIVE',
          system_domain_id: domainId,
        });
        await em.insert(UserEntity, user).catch((e: unknown) => {
          throw isUniqueViolation(e)
            ? ApiError.conflict('This email was invited concurrently; try again')
            : e;
        });
      }
      await em.insert(UserSystemDomainEntity, { user_id: user.id, system_domain_id: domainId });
      const invitation = em.create(InvitationEntity, {
        system_domain_id: domainId,
        user_id: user.id,
        inviter_user_id: auth.userId,
        reset_hash_sha256: sha256Hex(secret),
        expires,
        accepted_at: null,
      });
      await em.insert(InvitationEntity, invitation);
      await this.mail.queue(em, {
        kind: 'invitation',
        to: user.email,
        subject: `You are invited to ${auth.domain.name}`,
        body: this.body(auth, `${this.config.http.publicBaseUrl}/invitation/${secret}`, expires),
      });
      return {
        id: invitation.id,
        system_domain_id: domainId,
        user_id: user.id,
        is_existing_user_invitation: existing,
        is_initial_user_invitation: false,
      };
    });
  }

  private body(auth: AuthContext, link: string, expires: Date): string {
    const inviter = [auth.user.first_name, auth.user.last_name].filter(Boolean).join(' ') || auth.user.email;
    return [
      `${inviter} invited you to join ${auth.domain.name}.`,
      '',
      `Accept the invitation: ${link}`,
      '',
      `The link works once and expires on ${expires.toISOString()}. If you did not expect this invitation, ignore this mail.`,
    ].join('\n');
  }
}
