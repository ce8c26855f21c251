/** Group rows and the row half of a groups repository, as the group and team specs fake them. */
import { jest } from '@jest/globals';
import type { GroupEntity } from '../../../src/base/model/group.entity.js';
import { NOW } from './fixtures.js';

/** Group g1 'Editors' of domain d1, a GROUP granting can_read_users, stamped NOW; `over` on top. */
export const groupRow = (over: Partial<GroupEntity> = {}) =>
  ({
    id: 'g1',
    system_domain_id: 'd1',
    kind: 'GROUP',
    name: 'Editors',
    alias: null,
    description: null,
    external_id: null,
    default_user_type: null,
    roles: ['can_read_users'],
    role_categories: [],
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as GroupEntity;

/**
 * The row methods of a groups repository fake over one stored row (`stored`, else `row()`): `find` answers it,
 * `nameTaken` answers `taken`, `insert` stores a new row 'new', `update` merges the changes into it, `delete`.
 */
export function groupRows(
  o: { stored?: GroupEntity | null; taken?: boolean },
  row: (over?: Partial<GroupEntity>) => GroupEntity = groupRow,
) {
  let stored = 'stored' in o ? o.stored : row();
  return {
    find: jest.fn(async (..._a: unknown[]) => stored),
    nameTaken: jest.fn(async (..._a: unknown[]) => o.taken ?? false),
    insert: jest.fn(async (_em: unknown, fields: Partial<GroupEntity>) => {
      stored = row({ ...fields, id: 'new' });
      return 'new';
    }),
    update: jest.fn(async (_em: unknown, _id: string, changes: Partial<GroupEntity>) => {
      stored = { ...stored!, ...changes } as GroupEntity;
    }),
    delete: jest.fn(async (..._a: unknown[]) => undefined),
  };
}
