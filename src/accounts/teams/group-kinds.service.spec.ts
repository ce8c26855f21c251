import { jest } from '@jest/globals';
import type { BaseConfig } from '../../base/config/config.js';
import type { GroupEntity } from '../../base/model/group.entity.js';
import { ROLE_GROUP, TEAM, type KindSpec } from './group-kind.js';
import { GroupKindsService } from './group-kinds.service.js';
import { authContext, recordingEvents, transactionalRepo } from '../../../test/utils/fakes.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err, expectEvent, expectUncalled } from '../../../test/utils/fakes/expect.js';
import { EM, MANAGER } from '../../../test/utils/fakes/fixtures.js';
import { groupRow, groupRows } from '../../../test/utils/fakes/groups.js';

const SHA = 'ab'.repeat(32);

const row = (over: Partial<GroupEntity> = {}) => groupRow({ kind: 'ROLE_GROUP', ...over });

const caller = (roles: string[] = ['can_read_users', 'can_write_users']) => authContext({ roles });

function setup(o: { stored?: GroupEntity | null; taken?: boolean; added?: boolean; removed?: boolean } = {}) {
  const order: string[] = [];
  const { find: ofKind, ...rows } = groupRows(o, row);
  const repo = transactionalRepo(order, EM, { manager: MANAGER, search: jest.fn(), ofKind, ...rows });
  const groups = {
    addMemberIn: jest.fn(async () => o.added ?? true),
    removeMemberIn: jest.fn(async () => o.removed ?? true),
    currentMemberIdsIn: jest.fn(
      async (_em: unknown, ids: string[]) => new Map(ids.map((id) => [id, ['u9']])),
    ),
    logoHashesIn: jest.fn(async () => new Map([['g1', SHA]])),
  };
  const access = { require: jest.fn(async () => undefined) };
  const users = { get: jest.fn(async () => ({ id: 'u2' })) };
  const events = recordingEvents(order);
  const config = { http: { publicBaseUrl: 'https://auth.example.test/' } } as BaseConfig;
  const service = construct(GroupKindsService, repo, access, users, events, config, groups);
  return { service, repo, groups, access, users, events, order };
}

const nothingWritten = (s: ReturnType<typeof setup>) => {
  expectUncalled(s.repo, 'insert', 'update', 'delete');
  expectUncalled(s.groups, 'addMemberIn', 'removeMemberIn');
  expectUncalled(s.events, 'record');
};

describe('GroupKindsService views', () => {
  it('a team: its current members and its logo’s URL, no roles', async () => {
    const s = setup({ stored: row({ kind: 'TEAM', roles: [] }) });
    const view = await s.service.get(TEAM, caller(), 'g1');
    expect(s.repo.ofKind).toHaveBeenCalledWith(MANAGER, 'd1', 'TEAM', 'g1');
    expect(view).toEqual(
      expect.objectContaining({
        id: 'g1',
        member_ids: ['u9'],
        logo: `https://auth.example.test/API/users/v1/teams/g1/logo/?v=${SHA.slice(0, 12)}`,
      }),
    );
    expect(view).not.toHaveProperty('roles');
  });

  it('a role group: its roles and categories, no logo; 404 in the kind’s words', async () => {
    const s = setup();
    const view = await s.service.get(ROLE_GROUP, caller(), 'g1');
    expect(view).toEqual(expect.objectContaining({ roles: ['can_read_users'], role_categories: [] }));
    expect(view).not.toHaveProperty('logo');
    expect(s.groups.logoHashesIn).not.toHaveBeenCalled();
    await expect(setup({ stored: null }).service.get(ROLE_GROUP, caller(), 'x')).rejects.toEqual(
      err(404, 'teams.ROLE_GROUP_NOT_FOUND'),
    );
    await expect(setup({ stored: null }).service.get(TEAM, caller(), 'x')).rejects.toEqual(
      err(404, 'teams.TEAM_NOT_FOUND'),
    );
  });
});

describe.each<[string, KindSpec]>([
  ['teams', TEAM],
  ['role groups', ROLE_GROUP],
])('GroupKindsService.create (%s)', (_label, spec) => {
  it('writes the row of its kind with the name trimmed, then the event, in one transaction', async () => {
    const s = setup();
    await s.service.create(spec, caller(), { name: ' Blue ', alias: 'b', description: undefined } as never);
    expect(s.repo.nameTaken).toHaveBeenCalledWith(EM, 'd1', spec.kind, 'Blue');
    expect(s.repo.insert).toHaveBeenCalledWith(EM, {
      name: 'Blue',
      alias: 'b',
      system_domain_id: 'd1',
      kind: spec.kind,
      roles: [],
    });
    expect(s.order).toEqual(['begin', 'event', 'commit']);
    expectEvent(s.events, EM, {
      realm: spec.entity,
      operation: 'create',
      objectId: 'new',
      eventType: 'groups',
    });
  });

  it('blank names are invalid; names taken (checked, or by the unique index) are 409', async () => {
    let s = setup();
    await expect(s.service.create(spec, caller(), { name: '  ' } as never)).rejects.toEqual(
      err(400, 'teams.INVALID'),
    );
    s = setup({ taken: true });
    await expect(s.service.create(spec, caller(), { name: 'Blue' } as never)).rejects.toEqual(
      err(409, 'teams.NAME_TAKEN'),
    );
    nothingWritten(s);
    s = setup();
    s.repo.insert.mockRejectedValueOnce(Object.assign(new Error('dup'), { code: '23505' }));
    await expect(s.service.create(spec, caller(), { name: 'Blue' } as never)).rejects.toEqual(
      err(409, 'teams.NAME_TAKEN'),
    );
  });
});

describe('GroupKindsService roles', () => {
  it('a team carries no roles: roles in the body are ignored', async () => {
    const s = setup();
    await s.service.create(TEAM, caller([]), { name: 'T', roles: ['can_delete_users'] } as never);
    expect(s.repo.insert).toHaveBeenCalledWith(EM, expect.objectContaining({ roles: [] }));
  });

  it('a role group grants only roles the caller holds, each once', async () => {
    let s = setup();
    await s.service.create(ROLE_GROUP, caller(), {
      name: 'R',
      roles: ['can_read_users', 'can_read_users'],
      role_categories: ['a', 'a'],
    } as never);
    expect(s.repo.insert).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ roles: ['can_read_users'], role_categories: ['a'] }),
    );
    s = setup();
    await expect(
      s.service.create(ROLE_GROUP, caller(['can_read_users']), {
        name: 'R',
        roles: ['can_delete_users'],
      } as never),
    ).rejects.toEqual(
      err(403, 'teams.ROLES_NOT_HELD', ['You cannot grant roles you do not hold: can_delete_users']),
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('a role group carrying roles the caller does not hold cannot be managed at all', async () => {
    const s = setup({ stored: row({ roles: ['can_delete_users'] }) });
    const who = caller(['can_read_users']);
    await expect(s.service.update(ROLE_GROUP, who, 'g1', { description: 'x' } as never)).rejects.toEqual(
      err(403, 'teams.ROLES_NOT_HELD', [
        'You cannot manage a role group carrying roles you do not hold: can_delete_users',
      ]),
    );
    await expect(s.service.remove(ROLE_GROUP, who, 'g1')).rejects.toEqual(err(403, 'teams.ROLES_NOT_HELD'));
    await expect(s.service.addUser(ROLE_GROUP, who, 'g1', 'u2')).rejects.toEqual(
      err(403, 'teams.ROLES_NOT_HELD'),
    );
    await expect(s.service.removeUser(ROLE_GROUP, who, 'g1', 'u2')).rejects.toEqual(
      err(403, 'teams.ROLES_NOT_HELD'),
    );
    expect(s.repo.ofKind).toHaveBeenCalledWith(EM, 'd1', 'ROLE_GROUP', 'g1', true);
    nothingWritten(s);
  });
});

describe('GroupKindsService.update and remove', () => {
  it('update locks the row, checks a new name, writes and tells; an empty change writes nothing', async () => {
    let s = setup();
    await s.service.update(ROLE_GROUP, caller(), 'g1', { name: 'Writers' } as never);
    expect(s.repo.nameTaken).toHaveBeenCalledWith(EM, 'd1', 'ROLE_GROUP', 'Writers');
    expect(s.repo.update).toHaveBeenCalledWith(EM, 'g1', { name: 'Writers' });
    expectEvent(s.events, EM, { operation: 'update', objectId: 'g1' });
    s = setup();
    await s.service.update(ROLE_GROUP, caller(), 'g1', { name: 'Editors' } as never);
    expect(s.repo.nameTaken).not.toHaveBeenCalled();
    s = setup();
    await s.service.update(ROLE_GROUP, caller(), 'g1', {} as never);
    nothingWritten(s);
    s = setup({ taken: true });
    await expect(s.service.update(ROLE_GROUP, caller(), 'g1', { name: 'Other' } as never)).rejects.toEqual(
      err(409, 'teams.NAME_TAKEN'),
    );
    nothingWritten(s);
  });

  it('remove deletes the row of its kind in the caller’s domain and tells; 404 when there is none', async () => {
    let s = setup();
    await s.service.remove(TEAM, caller(), 'g1');
    expect(s.repo.delete).toHaveBeenCalledWith(EM, 'd1', 'TEAM', 'g1');
    expectEvent(s.events, EM, { realm: 'team', operation: 'delete', data: { id: 'g1' } });
    s = setup({ stored: null });
    await expect(s.service.remove(TEAM, caller(), 'g1')).rejects.toEqual(err(404, 'teams.TEAM_NOT_FOUND'));
    nothingWritten(s);
  });
});

describe('GroupKindsService members', () => {
  it('addUser: the user must be reachable; a new membership is told in the member realm, a repeat is not', async () => {
    let s = setup();
    await expect(s.service.addUser(TEAM, caller(), 'g1', 'u2')).resolves.toEqual({ id: 'u2' });
    expect(s.access.require).toHaveBeenCalledWith(expect.anything(), 'user', ['u2']);
    expect(s.groups.addMemberIn).toHaveBeenCalledWith(EM, 'g1', 'u2');
    expectEvent(s.events, EM, {
      realm: 'team_member',
      operation: 'create',
      data: { team_id: 'g1', user_id: 'u2' },
    });
    s = setup({ added: false });
    await s.service.addUser(ROLE_GROUP, caller(), 'g1', 'u2');
    expect(s.events.record).not.toHaveBeenCalled();
    s = setup();
    s.access.require.mockRejectedValueOnce(new Error('User not found'));
    await expect(s.service.addUser(TEAM, caller(), 'g1', 'u2')).rejects.toThrow('User not found');
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('removeUser: 404 when not a member; else told in the member realm', async () => {
    let s = setup({ removed: false });
    await expect(s.service.removeUser(ROLE_GROUP, caller(), 'g1', 'u2')).rejects.toEqual(
      err(404, 'teams.MEMBER_NOT_FOUND'),
    );
    expect(s.events.record).not.toHaveBeenCalled();
    s = setup();
    await s.service.removeUser(ROLE_GROUP, caller(), 'g1', 'u2');
    expectEvent(s.events, EM, {
      realm: 'role_group_member',
      operation: 'delete',
      data: { role_group_id: 'g1', user_id: 'u2' },
    });
  });
});
