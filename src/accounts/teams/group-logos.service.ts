import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { UploadedImage } from '../../base/common/http/image-upload.js';
import { Clock } from '../../base/common/clock.js';
import type { GroupLogoEntity } from '../../base/model/group-logo.entity.js';
import type { GroupKind } from '../../base/model/group.entity.js';
import { sha256Hex, sniffImage } from '../system-domains/logo.js';
import { GroupKindsService } from './group-kinds.service.js';
import { TeamsErrors } from './teams.errors.js';
import { TeamsRepository } from './teams.repository.js';

const COLLECTION = { TEAM: 'teams', GROUP: 'groups' } as const;
export type LogoKind = keyof typeof COLLECTION;

/** One image (PNG, JPEG, GIF, WebP by its bytes) from the upload, else the feature's 400. */
export function oneImage(files: UploadedImage[] | undefined): { bytes: Buffer; contentType: string } {
  const candidates = (files ?? []).filter((f) => f.fieldname === 'logo' || f.fieldname === 'file');
  if (candidates.length !== 1 || (files ?? []).length !== 1 || candidates[0].size === 0)
    throw TeamsErrors.IMAGE_MISSING();
  const contentType = sniffImage(candidates[0].buffer);
  if (!contentType) throw TeamsErrors.IMAGE_TYPE();
  return { bytes: candidates[0].buffer, contentType };
}

/**
 * Logos of teams and groups, kept in the database (every instance serves the same bytes). Changing one is a
 * change of its team or group: the same roles, the same "roles you hold" rule for groups, an update event.
 */
@Injectable()
export class GroupLogosService {
  constructor(
    private readonly repo: TeamsRepository,
    private readonly kinds: GroupKindsService,
    private readonly clock: Clock,
  ) {}

  async upload(kind: LogoKind, auth: AuthContext, id: string, files: UploadedImage[] | undefined) {
    const image = oneImage(files);
    const sha256 = sha256Hex(image.bytes);
    await this.repo.transaction(async (em) => {
      await this.manageable(em, kind, auth, id);
      await this.repo.saveLogo(
        em,
        {
          group_id: id,
          content_type: image.contentType,
          bytes: image.bytes,
          sha256,
          date_modified: this.clock.now(),
        },
        this.clock.now(),
      );
      const logo = this.kinds.logoUrl(COLLECTION[kind], id, sha256);
      await this.kinds.emit(em, auth, kind === 'TEAM' ? 'team' : 'group', id, 'update', { id, logo });
    });
    return { logo: this.kinds.logoUrl(COLLECTION[kind], id, sha256) };
  }

  async remove(kind: LogoKind, auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      await this.manageable(em, kind, auth, id);
      if (!(await this.repo.deleteLogo(em, id))) throw TeamsErrors.NO_LOGO();
      await this.kinds.emit(em, auth, kind === 'TEAM' ? 'team' : 'group', id, 'update', { id, logo: null });
    });
  }

  async get(kind: LogoKind, auth: AuthContext, id: string): Promise<GroupLogoEntity> {
    const logo = await this.repo.logo(auth.systemDomainId, kind, id);
    if (!logo) throw TeamsErrors.NO_LOGO();
    return logo;
  }

  private async manageable(em: EntityManager, kind: GroupKind, auth: AuthContext, id: string) {
    const row = await this.repo.ofKind(em, auth.systemDomainId, kind, id, true);
    if (!row) throw kind === 'TEAM' ? TeamsErrors.TEAM_NOT_FOUND() : TeamsErrors.GROUP_NOT_FOUND();
    const missing = row.roles.filter((r) => !(auth.roles as Set<string>).has(r));
    if (missing.length > 0)
      throw TeamsErrors.ROLES_NOT_HELD('You cannot manage a group carrying roles you do not hold', missing);
    return row;
  }
}
