import { jest } from '@jest/globals';
import type { GroupEntity } from '../../base/model/group.entity.js';
import { GroupsService } from './groups.service.js';
import {
  authContext,
  recordingAudit,
  recordingEvents,
  transactionalRepo,
} from '../../../test/utils/fakes.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err, expectAudited, expectEvent, expectUncalled } from '../../../test/utils/fakes/expect.js';
import { EM, MANAGER } from '../../../test/utils/fakes/fixtures.js';
import { groupRow as group, groupRows } from '../../../test/utils/fakes/groups.js';

const caller = (roles: string[] = ['can_read_users', 'can_write_users']) => authContext({ roles });

function setup(o: { stored?: GroupEntity | null; taken?: boolean; added?: boolean; removed?: boolean } = {}) {
  const order: string[] = [];
  const rows = groupRows(o);
  const repo = transactionalRepo(order, EM, {
    manager: MANAGER,
    search: jest.fn(),
    group: rows.find,
    nameTaken: rows.nameTaken,
    insertGroup: rows.insert,
    updateGroup: rows.update,
    deleteGroup: rows.delete,
    addMember: jest.fn(async () => o.added ?? true),
    removeMember: jest.fn(async () => o.removed ?? true),
    currentMemberIds: jest.fn(async (_em: unknown, ids: string[]) => new Map(ids.map((id) => [id, ['u9']]))),
  });
  const access = { require: jest.fn(async () => undefined) };
  const users = { get: jest.fn(async () => ({ id: 'u2' })) };
  const events = recordingEvents(order);
  const audit = recordingAudit(order);
  const service = construct(GroupsService, access, users, events, audit, repo);
  return { service, repo, access, users, events, audit, order };
}

const nothingWritten = (s: ReturnType<typeof setup>) => {
  expectUncalled(s.repo, 'insertGroup', 'updateGroup', 'deleteGroup', 'addMember', 'removeMember');
  expectUncalled(s.events, 'record');
  expectUncalled(s.audit, 'change');
};

describe('GroupsService.get', () => {
  it('a group of the caller’s domain with its current members; 404 otherwise', async () => {
    const s = setup();
    await expect(s.service.get(caller(), 'g1')).resolves.toEqual(
      expect.objectContaining({ id: 'g1', name: 'Editors', member_ids: ['u9'] }),
    );
    expect(s.repo.group).toHaveBeenCalledWith(MANAGER, 'd1', 'g1');
    expect(s.repo.currentMemberIds).toHaveBeenCalledWith(MANAGER, ['g1']);
    await expect(setup({ stored: null }).service.get(caller(), 'g1')).rejects.toEqual(
      err(404, 'groups.NOT_FOUND'),
    );
  });
});

describe('GroupsService.create', () => {
  it('creates the group with its roles once each, trimmed name, then the audit and the event, in one transaction', async () => {
    const s = setup();
    const out = await s.service.create(caller(), {
      name: '  Editors ',
      roles: ['can_read_users', 'can_read_users'],
    } as never);
    expect(s.repo.nameTaken).toHaveBeenCalledWith(EM, 'd1', 'Editors');
    expect(s.repo.insertGroup).toHaveBeenCalledWith(EM, {
      system_domain_id: 'd1',
      name: 'Editors',
      description: null,
      roles: ['can_read_users'],
    });
    expect(out).toEqual(expect.objectContaining({ id: 'new', roles: ['can_read_users'] }));
    expect(s.order).toEqual(['begin', 'audit', 'event', 'commit']);
    expectAudited(s.audit, EM, 'group.changed', { type: 'group', id: 'new' }, { operation: 'create' });
    expect(s.events.record).toHaveBeenCalledWith(EM, {
      systemDomainId: 'd1',
      objectId: 'new',
      realm: 'group',
      operation: 'create',
      eventType: 'groups',
      data: { ...out },
      requestId: 'r1',
    });
  });

  it('refuses roles the caller does not hold (no escalation), before any statement', async () => {
    const s = setup();
    await expect(
      s.service.create(caller(['can_read_users']), {
        name: 'X',
        roles: ['can_read_users', 'can_delete_users'],
      } as never),
    ).rejects.toEqual(
      expect.objectContaining({
        status: 403,
        code: 'groups.ROLES_NOT_HELD',
        errors: ['You cannot grant roles you do not hold: can_delete_users'],
      }),
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('a blank name is invalid; a name taken (by the check, or by the unique index racing it) is 409', async () => {
    let s = setup();
    await expect(s.service.create(caller(), { name: '   ' } as never)).rejects.toEqual(
      err(400, 'groups.INVALID', { name: 'must not be blank' }),
    );
    s = setup({ taken: true });
    await expect(s.service.create(caller(), { name: 'Editors' } as never)).rejects.toEqual(
      err(409, 'groups.NAME_TAKEN'),
    );
    nothingWritten(s);
    s = setup();
    s.repo.insertGroup.mockRejectedValueOnce(Object.assign(new Error('dup'), { code: '23505' }));
    await expect(s.service.create(caller(), { name: 'Editors' } as never)).rejects.toEqual(
      err(409, 'groups.NAME_TAKEN'),
    );
    s = setup();
    const other = new Error('boom');
    s.repo.insertGroup.mockRejectedValueOnce(other);
    await expect(s.service.create(caller(), { name: 'Editors' } as never)).rejects.toBe(other);
  });
});

describe('GroupsService.update', () => {
  it('locks the group, writes the changes and tells of them', async () => {
    const s = setup();
    const out = await s.service.update(caller(), 'g1', {
      name: 'Writers',
      roles: ['can_write_users'],
    } as never);
    expect(s.repo.group).toHaveBeenCalledWith(EM, 'd1', 'g1', true);
    expect(s.repo.nameTaken).toHaveBeenCalledWith(EM, 'd1', 'Writers');
    expect(s.repo.updateGroup).toHaveBeenCalledWith(EM, 'g1', {
      name: 'Writers',
      roles: ['can_write_users'],
    });
    expect(out).toEqual(expect.objectContaining({ name: 'Writers', roles: ['can_write_users'] }));
    expectEvent(s.events, EM, { operation: 'update', objectId: 'g1' });
  });

  it('keeping its own name checks nothing; an empty change writes and tells nothing', async () => {
    let s = setup();
    await s.service.update(caller(), 'g1', { name: 'Editors', description: 'd' } as never);
    expect(s.repo.nameTaken).not.toHaveBeenCalled();
    expect(s.repo.updateGroup).toHaveBeenCalledWith(EM, 'g1', { name: 'Editors', description: 'd' });
    s = setup();
    await expect(s.service.update(caller(), 'g1', {} as never)).resolves.toEqual(
      expect.objectContaining({ id: 'g1' }),
    );
    nothingWritten(s);
  });

  it('a group carrying roles the caller does not hold cannot be managed; nor can roles be granted that way', async () => {
    let s = setup({ stored: group({ roles: ['can_delete_users'] }) });
    await expect(s.service.update(caller(), 'g1', { description: 'x' } as never)).rejects.toEqual(
      err(403, 'groups.ROLES_NOT_HELD', [
        'You cannot manage a group carrying roles you do not hold: can_delete_users',
      ]),
    );
    await expect(s.service.remove(caller(), 'g1')).rejects.toEqual(err(403, 'groups.ROLES_NOT_HELD'));
    await expect(s.service.addMember(caller(), 'g1', 'u2')).rejects.toEqual(
      err(403, 'groups.ROLES_NOT_HELD'),
    );
    await expect(s.service.removeMember(caller(), 'g1', 'u2')).rejects.toEqual(
      err(403, 'groups.ROLES_NOT_HELD'),
    );
    nothingWritten(s);
    s = setup();
    await expect(s.service.update(caller(), 'g1', { roles: ['can_delete_users'] } as never)).rejects.toEqual(
      err(403, 'groups.ROLES_NOT_HELD'),
    );
    nothingWritten(s);
  });

  it('404 for a group not of the caller’s domain; 409 for a name taken', async () => {
    let s = setup({ stored: null });
    await expect(s.service.update(caller(), 'g1', { name: 'X' } as never)).rejects.toEqual(
      err(404, 'groups.NOT_FOUND'),
    );
    s = setup({ taken: true });
    await expect(s.service.update(caller(), 'g1', { name: 'Other' } as never)).rejects.toEqual(
      err(409, 'groups.NAME_TAKEN'),
    );
    nothingWritten(s);
  });
});

describe('GroupsService.remove', () => {
  it('deletes the group of the caller’s domain and tells of it, in one transaction', async () => {
    const s = setup();
    await s.service.remove(caller(), 'g1');
    expect(s.repo.deleteGroup).toHaveBeenCalledWith(EM, 'd1', 'g1');
    expect(s.order).toEqual(['begin', 'audit', 'event', 'commit']);
    expectEvent(s.events, EM, { realm: 'group', operation: 'delete', data: { id: 'g1' } });
  });
});

describe('GroupsService members', () => {
  it('addMember: the user must be reachable; a new membership is told, a repeated one is not', async () => {
    let s = setup();
    await expect(s.service.addMember(caller(), 'g1', 'u2')).resolves.toEqual(
      expect.objectContaining({ id: 'g1' }),
    );
    expect(s.access.require).toHaveBeenCalledWith(expect.anything(), 'user', ['u2']);
    expect(s.repo.addMember).toHaveBeenCalledWith(EM, 'g1', 'u2');
    expectEvent(s.events, EM, {
      realm: 'group_member',
      operation: 'create',
      data: { group_id: 'g1', user_id: 'u2' },
    });
    s = setup({ added: false });
    await s.service.addMember(caller(), 'g1', 'u2');
    expect(s.events.record).not.toHaveBeenCalled();
    expect(s.audit.change).not.toHaveBeenCalled();
  });

  it('addMember: a user the caller may not reach is refused before the group is touched', async () => {
    const s = setup();
    s.access.require.mockRejectedValueOnce(new Error('User not found'));
    await expect(s.service.addMember(caller(), 'g1', 'u2')).rejects.toThrow('User not found');
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('addUser answers the user', async () => {
    const s = setup();
    await expect(s.service.addUser(caller(), 'g1', 'u2')).resolves.toEqual({ id: 'u2' });
    expect(s.users.get).toHaveBeenCalledWith(expect.anything(), 'u2');
  });

  it('removeMember: 404 when not a member, else told', async () => {
    let s = setup({ removed: false });
    await expect(s.service.removeMember(caller(), 'g1', 'u2')).rejects.toEqual(
      err(404, 'groups.MEMBER_NOT_FOUND'),
    );
    expect(s.events.record).not.toHaveBeenCalled();
    s = setup();
    await s.service.removeMember(caller(), 'g1', 'u2');
    expect(s.repo.removeMember).toHaveBeenCalledWith(EM, 'g1', 'u2');
    expectEvent(s.events, EM, { realm: 'group_member', operation: 'delete' });
  });
});
