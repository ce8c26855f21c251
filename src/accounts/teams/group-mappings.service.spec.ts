import { jest } from '@jest/globals';
import type { GroupMappingEntity } from '../../base/model/group-mapping.entity.js';
import type { GroupEntity } from '../../base/model/group.entity.js';
import { GroupMappingsService } from './group-mappings.service.js';
import { authContext, repoWithTransaction } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err } from '../../../test/utils/fakes/expect.js';

const group = (roles: string[] = ['can_read_users']) =>
  ({ id: 'g1', system_domain_id: 'd1', roles }) as GroupEntity;
const mapping = (over: Partial<GroupMappingEntity> = {}) =>
  ({
    id: 'm1',
    name: 'staff',
    group_id: 'g1',
    system_domain_id: 'd1',
    date_created: NOW,
    ...over,
  }) as GroupMappingEntity;

const caller = (roles: string[] = ['can_read_users']) => authContext({ roles });

function setup(o: { group?: GroupEntity | null; mapping?: GroupMappingEntity | null; taken?: boolean } = {}) {
  const repo = repoWithTransaction(EM, {
    mappings: jest.fn(),
    mapping: jest.fn(async () => ('mapping' in o ? o.mapping : mapping())),
    anyKind: jest.fn(async () => ('group' in o ? o.group : group())),
    mappingTaken: jest.fn(async () => o.taken ?? false),
    insertMapping: jest.fn(async (_em: unknown, f: Partial<GroupMappingEntity>) => mapping(f)),
    deleteMapping: jest.fn(async () => undefined),
  });
  const kinds = { emit: jest.fn(async () => undefined) };
  const service = construct(GroupMappingsService, repo, kinds);
  return { service, repo, kinds };
}

describe('GroupMappingsService.create', () => {
  it('maps a trimmed name to a group of the caller’s domain and tells of it, in one transaction', async () => {
    const s = setup();
    const out = await s.service.create(caller(), { name: ' staff ', group_id: 'g1' });
    expect(s.repo.anyKind).toHaveBeenCalledWith(EM, 'g1', 'd1');
    expect(s.repo.mappingTaken).toHaveBeenCalledWith(EM, 'd1', 'staff');
    expect(s.repo.insertMapping).toHaveBeenCalledWith(EM, {
      system_domain_id: 'd1',
      name: 'staff',
      group_id: 'g1',
    });
    expect(out).toEqual({
      name: 'staff',
      group_id: 'g1',
      system_domain_id: 'd1',
      date_created: expect.any(String),
    });
    expect(s.kinds.emit).toHaveBeenCalledWith(EM, expect.anything(), 'group_mapping', 'g1', 'create', {
      ...out,
    });
  });

  it('a blank name is invalid, before any statement', async () => {
    const s = setup();
    await expect(s.service.create(caller(), { name: '  ', group_id: 'g1' })).rejects.toEqual(
      err(400, 'teams.INVALID'),
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('404 for a group not of the caller’s domain', async () => {
    const s = setup({ group: null });
    await expect(s.service.create(caller(), { name: 'staff', group_id: 'g9' })).rejects.toEqual(
      err(404, 'teams.GROUP_NOT_FOUND'),
    );
    expect(s.repo.insertMapping).not.toHaveBeenCalled();
  });

  it('mapping to a group carrying roles the caller does not hold is escalation: 403', async () => {
    const s = setup({ group: group(['can_read_users', 'can_delete_users']) });
    await expect(s.service.create(caller(), { name: 'staff', group_id: 'g1' })).rejects.toEqual(
      err(403, 'teams.ROLES_NOT_HELD', [
        'You cannot map to a group carrying roles you do not hold: can_delete_users',
      ]),
    );
    expect(s.repo.insertMapping).not.toHaveBeenCalled();
    expect(s.kinds.emit).not.toHaveBeenCalled();
  });

  it('409 for a name already mapped (checked, or by the unique index)', async () => {
    let s = setup({ taken: true });
    await expect(s.service.create(caller(), { name: 'staff', group_id: 'g1' })).rejects.toEqual(
      err(409, 'teams.MAPPING_TAKEN'),
    );
    expect(s.repo.insertMapping).not.toHaveBeenCalled();
    s = setup();
    s.repo.insertMapping.mockRejectedValueOnce(Object.assign(new Error('dup'), { code: '23505' }));
    await expect(s.service.create(caller(), { name: 'staff', group_id: 'g1' })).rejects.toEqual(
      err(409, 'teams.MAPPING_TAKEN'),
    );
    expect(s.kinds.emit).not.toHaveBeenCalled();
  });
});

describe('GroupMappingsService.get and remove', () => {
  it('get by name in the caller’s domain; 404 otherwise', async () => {
    const s = setup();
    await expect(s.service.get(caller(), 'staff')).resolves.toEqual(
      expect.objectContaining({ name: 'staff' }),
    );
    expect(s.repo.mapping).toHaveBeenCalledWith('d1', 'staff');
    await expect(setup({ mapping: null }).service.get(caller(), 'x')).rejects.toEqual(
      err(404, 'teams.MAPPING_NOT_FOUND'),
    );
  });

  it('remove locks the mapping, deletes it and tells of it', async () => {
    const s = setup();
    await s.service.remove(caller(), 'staff');
    expect(s.repo.mapping).toHaveBeenCalledWith('d1', 'staff', { em: EM, lock: true });
    expect(s.repo.deleteMapping).toHaveBeenCalledWith(EM, 'm1');
    expect(s.kinds.emit).toHaveBeenCalledWith(EM, expect.anything(), 'group_mapping', 'g1', 'delete', {
      name: 'staff',
      group_id: 'g1',
    });
  });

  it('remove: 404 for no such mapping; 403 when it points at roles the caller does not hold', async () => {
    let s = setup({ mapping: null });
    await expect(s.service.remove(caller(), 'x')).rejects.toEqual(err(404, 'teams.MAPPING_NOT_FOUND'));
    s = setup({ group: group(['can_delete_users']) });
    await expect(s.service.remove(caller(), 'staff')).rejects.toEqual(err(403, 'teams.ROLES_NOT_HELD'));
    expect(s.repo.deleteMapping).not.toHaveBeenCalled();
    expect(s.kinds.emit).not.toHaveBeenCalled();
  });
});

describe('GroupMappingsService.reindex', () => {
  it('records a reindex event carrying the request’s id for a group of the domain; 404 otherwise', async () => {
    let s = setup();
    const out = await s.service.reindex(caller(), 'g1');
    expect(out).toEqual({ id: expect.any(String), group_id: 'g1', job_id: out.id, status: 'READY' });
    expect(s.repo.anyKind).toHaveBeenCalledWith(EM, 'g1', 'd1');
    expect(s.kinds.emit).toHaveBeenCalledWith(EM, expect.anything(), 'group', 'g1', 'reindex', {
      reindex_id: out.id,
      job_id: out.id,
      group_id: 'g1',
    });
    s = setup({ group: null });
    await expect(s.service.reindex(caller(), 'g9')).rejects.toEqual(err(404, 'teams.GROUP_NOT_FOUND'));
    expect(s.kinds.emit).not.toHaveBeenCalled();
  });
});
