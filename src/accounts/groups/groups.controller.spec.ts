import { jest } from '@jest/globals';
import { ALL_ROLES } from '../../base/common/auth/roles.js';
import {
  crudServiceFake,
  expectNotFound,
  useControllerSpec,
} from '../../../test/utils/controller-spec-suite.js';
import { GroupsController } from './groups.controller.js';
import { GroupsService } from './groups.service.js';

const GROUPS = '/API/users/v1/groups';
const GROUP = '66666666-6666-4666-8666-666666666666';
const USER = '77777777-7777-4777-8777-777777777777';

describe('GroupsController (HTTP layer, faked service)', () => {
  const service = crudServiceFake(GROUP, {
    basicList: jest.fn(async () => ({ objects: [] })),
    addMember: jest.fn(async () => ({ id: GROUP })),
    removeMember: jest.fn(async () => undefined),
    addUser: jest.fn(async () => ({ id: GROUP })),
  });
  const s = useControllerSpec({
    controllers: [GroupsController],
    providers: [{ provide: GroupsService, useValue: service }],
    callers: {
      reader: { roles: ['can_read_groups'] },
      writer: { roles: ['can_read_groups', 'can_write_groups'] },
    },
    entities: { group: { label: 'Group', ids: [GROUP] } },
  });

  it('needs a token (401)', async () => {
    await s.http.post(GROUPS).send({ name: 'x', roles: [] }).expect(401);
    await s.http.get(`${GROUPS}/basic`).expect(401);
  });

  it('needs can_write_groups to write, can_read_groups to read; /basic only a token', async () => {
    const res = await s.http.post(GROUPS).set(s.as('reader')).send({ name: 'x', roles: [] }).expect(403);
    expect(res.body).toEqual({ errors: ['Missing role: can_write_groups'] });
    await s.http.get(GROUPS).set(s.as('user')).expect(403);
    await s.http.patch(`${GROUPS}/${GROUP}/`).set(s.as('reader')).send({ name: 'x' }).expect(403);
    await s.http.get(`${GROUPS}/basic`).set(s.as('user')).expect(200);
    expect(service.basicList).toHaveBeenCalledWith(s.callers.user, expect.anything(), `${GROUPS}/basic`);
    expect(service.create).not.toHaveBeenCalled();
  });

  it('passes the caller, the ids and the parsed body to the service', async () => {
    await s.http
      .post(GROUPS)
      .set(s.as('writer'))
      .send({ name: 'Editors', roles: ['can_read_groups'] })
      .expect(201);
    expect(service.create).toHaveBeenCalledWith(s.callers.writer, {
      name: 'Editors',
      roles: ['can_read_groups'],
    });
    await s.http.post(`${GROUPS}/${GROUP}/members/${USER}`).set(s.as('writer')).expect(201);
    expect(service.addMember).toHaveBeenCalledWith(s.callers.writer, GROUP, USER);
  });

  it.each([
    [
      { name: '', roles: ['can_fly'] },
      {
        name: 'name must be longer than or equal to 1 characters',
        roles: `each value must be one of ${ALL_ROLES.join(', ')}`,
      },
    ],
    // (a blank name, "must not be blank", is the service's rule: groups.service.ts)
    [{}, { name: 'name must be a string' }],
    [{ name: 'x', roles: null }, { roles: 'roles must be an array' }],
    [{ name: 'x', roles: 'can_read_users' }, { roles: 'roles must be an array' }],
    [{ name: 'x', roles: [], description: 7 }, { description: 'description must be a string' }],
    [{ name: 'x\u0000', roles: [] }, { name: 'must not contain NUL characters' }],
  ])('validates the body %j', async (body, errors) => {
    const res = await s.http.post(GROUPS).set(s.as('writer')).send(body).expect(400);
    expect(res.body).toEqual({ errors });
    expect(service.create).not.toHaveBeenCalled();
  });

  it('another domain’s group, and a malformed id, are 404 “Group not found”; a malformed user id too', async () => {
    await expectNotFound(s, [['otherAdmin', GROUP]], 'Group not found', (id) => [
      s.http.get(`${GROUPS}/${id}/`),
      s.http.patch(`${GROUPS}/${id}/`).send({ name: 'mine' }),
      s.http.delete(`${GROUPS}/${id}/`),
    ]);
    await expectNotFound(s, [['admin', 'nope']], 'Group not found', (id) => [s.http.get(`${GROUPS}/${id}/`)]);
    const res = await s.http.post(`${GROUPS}/${GROUP}/members/nope`).set(s.as('admin')).expect(404);
    expect(res.body).toEqual({ errors: ['User not found'] });
    expect(service.get).not.toHaveBeenCalled();
    expect(service.addMember).not.toHaveBeenCalled();
  });
});
