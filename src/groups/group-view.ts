import type { GroupDto } from './dto/group.dto.js';
import type { GroupEntity } from './group.entity.js';

export function groupView(g: GroupEntity, memberIds: string[]): GroupDto {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    roles: g.roles,
    system_domain_id: g.system_domain_id,
    member_ids: memberIds,
    date_created: new Date(g.date_created).toISOString(),
    date_modified: new Date(g.date_modified).toISOString(),
  };
}
