import type { GroupBasicDto, GroupDto } from './dto/group.dto.js';
import type { GroupEntity } from '../../base/model/group.entity.js';
import { wireDate } from '../../base/common/http/wire-date.js';

export function groupView(g: GroupEntity, memberIds: string[]): GroupDto {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    roles: g.roles,
    system_domain_id: g.system_domain_id,
    member_ids: memberIds,
    date_created: wireDate(g.date_created),
    date_modified: wireDate(g.date_modified),
  };
}

export function groupBasicView(g: GroupEntity): GroupBasicDto {
  return { id: g.id, name: g.name };
}
