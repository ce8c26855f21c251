import type { SelectQueryBuilder } from 'typeorm';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import { searchedPageList } from '../../base/common/http/page-list.js';
import type { GroupEntity } from '../../base/model/group.entity.js';
import type { GroupListQueryDto } from './dto/group.dto.js';

const SORTABLE = ['name', 'date_created'] as const;
const BY_NAME = [{ field: 'name', order: 'ASC' as const }];

/**
 * A page of groups of any kind (groups, teams, role groups) in the list envelope: `search` gives the domain's
 * groups whose name matches `query` (the repository's query), sorted by name unless `sort` says otherwise
 * (name, date_created), each row shown by `view`.
 */
export function pageOfGroups<T>(
  search: (text: string | undefined) => SelectQueryBuilder<GroupEntity>,
  q: GroupListQueryDto,
  path: string,
  view: (rows: GroupEntity[]) => T[] | Promise<T[]>,
): Promise<ListEnvelope<T>> {
  return searchedPageList({ search, alias: 'g', q, sortable: SORTABLE, defaultSort: BY_NAME, path, view });
}
