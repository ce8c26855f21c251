import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { isRole } from '../../base/common/auth/roles.js';
import { Clock } from '../../base/common/clock.js';
import type { UploadedImage } from '../../base/common/http/image-upload.js';
import { sha256Hex, sniffImage } from '../system-domains/logo.js';
import { ActingRightsService } from '../../credentials/tokens/acting-rights.service.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { MembershipsRepository } from './memberships.repository.js';
import type { UserPhotoEntity } from '../../base/model/user-photo.entity.js';
import { UsersErrors } from './users.errors.js';

export interface PhotoAnswer {
  photo: string;
}

/**
 * The smaller users routes of the published service: a user's photo as the caller's domain shows it, one role
 * checked, and the reindex request (this service keeps no index: it records the event for the indexer).
 */
@Injectable()
export class UserExtrasService {
  constructor(
    private readonly rights: ActingRightsService,
    private readonly events: WebhookEventsService,
    private readonly clock: Clock,
    private readonly memberships: MembershipsRepository,
  ) {}

  /** 404 unless the member holds `role` in the caller's domain (an unknown role name is held by nobody). */
  async hasRole(auth: AuthContext, userId: string, role: string): Promise<{ user_id: string; role: string }> {
    const rights = await this.rights.rightsOf(userId, auth.systemDomainId);
    if (!rights?.member) throw UsersErrors.NOT_FOUND();
    if (!isRole(role) || !rights.roles.has(role)) throw UsersErrors.ROLE_NOT_HELD();
    return { user_id: userId, role };
  }

  async setPhoto(
    auth: AuthContext,
    userId: string,
    files: UploadedImage[] | undefined,
  ): Promise<PhotoAnswer> {
    const candidates = (files ?? []).filter((f) => ['photo', 'logo', 'file'].includes(f.fieldname));
    if (candidates.length !== 1 || (files ?? []).length !== 1 || candidates[0].size === 0)
      throw UsersErrors.PHOTO_MISSING();
    const bytes = candidates[0].buffer;
    const contentType = sniffImage(bytes);
    if (!contentType) throw UsersErrors.PHOTO_TYPE();
    const sha256 = sha256Hex(bytes);
    const photo = this.photoUrl(userId, sha256);
    await this.requireRank(auth, userId);
    await this.memberships.transaction(async (em) => {
      await this.requireMember(em, auth, userId);
      await this.memberships.savePhoto(em, {
        user_id: userId,
        system_domain_id: auth.systemDomainId,
        content_type: contentType,
        bytes,
        sha256,
        date_modified: this.clock.now(),
      });
      await this.emit(em, auth, userId, 'update', { id: userId, photo });
    });
    return { photo };
  }

  async deletePhoto(auth: AuthContext, userId: string): Promise<void> {
    await this.requireRank(auth, userId);
    await this.memberships.transaction(async (em) => {
      await this.requireMember(em, auth, userId);
      if (!(await this.memberships.deletePhoto(em, userId, auth.systemDomainId)))
        throw UsersErrors.NO_PHOTO();
      await this.emit(em, auth, userId, 'update', { id: userId, photo: null });
    });
  }

  async photo(auth: AuthContext, userId: string): Promise<UserPhotoEntity> {
    const row = await this.memberships.photo(userId, auth.systemDomainId);
    if (!row) throw UsersErrors.NO_PHOTO();
    return row;
  }

  /** The request's id is the indexer's job id (`job_id`), READY until the indexer takes it (see UserReindexDto). */
  async reindex(
    auth: AuthContext,
    userId: string,
  ): Promise<{ id: string; user_id: string; job_id: string; status: 'READY' }> {
    const id = randomUUID();
    const request = { id, user_id: userId, job_id: id, status: 'READY' as const };
    await this.memberships.transaction(async (em) => {
      await this.requireMember(em, auth, userId);
      await this.emit(em, auth, userId, 'reindex', { reindex_id: id, job_id: id, user_id: userId });
    });
    return request;
  }

  /** As for the user's other fields: administrators are changed by administrators, super admins by super admins. */
  private async requireRank(auth: AuthContext, userId: string): Promise<void> {
    if (userId === auth.userId) return;
    const target = await this.rights.rightsOf(userId, auth.systemDomainId);
    if (!target?.member) throw UsersErrors.NOT_FOUND();
    if (target.isSuperAdmin && !auth.isSuperAdmin) throw UsersErrors.SUPER_ADMIN_RANK();
    if (target.isAdmin && !auth.isAdmin) throw UsersErrors.ADMIN_RANK();
  }

  private async requireMember(em: EntityManager, auth: AuthContext, userId: string): Promise<void> {
    if (!(await this.memberships.lockMembership(em, userId, auth.systemDomainId)))
      throw UsersErrors.NOT_FOUND();
  }

  private emit(
    em: EntityManager,
    auth: AuthContext,
    userId: string,
    operation: string,
    data: Record<string, unknown>,
  ) {
    return this.events.record(em, {
      systemDomainId: auth.systemDomainId,
      objectId: userId,
      realm: 'user',
      operation,
      eventType: 'users',
      data,
      requestId: auth.requestId,
    });
  }

  private photoUrl(userId: string, sha256: string): string {
    return `/API/users/v1/users/${userId}/photo/?v=${sha256.slice(0, 12)}`;
  }
}
