import { jest } from '@jest/globals';
import {
  crudServiceFake,
  expectFieldErrors,
  expectNotFound,
  hiddenFromCallers,
  useControllerSpec,
} from '../../../test/utils/controller-spec-suite.js';
import { GroupKindsService } from './group-kinds.service.js';
import { GroupLogosService } from './group-logos.service.js';
import { TeamsController } from './teams.controller.js';

const TEAMS = '/API/users/v1/teams';
const TEAM = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

describe('TeamsController (HTTP layer, faked services)', () => {
  const kinds = crudServiceFake(TEAM, { basic: jest.fn(async () => ({ objects: [] })) });
  const s = useControllerSpec({
    controllers: [TeamsController],
    providers: [
      { provide: GroupKindsService, useValue: kinds },
      { provide: GroupLogosService, useValue: {} },
    ],
    callers: {
      reader: { roles: ['can_read_groups'] },
      writer: { roles: ['can_read_groups', 'can_write_groups'] },
    },
    entities: { team: { label: 'Team', ids: [TEAM] } },
  });

  it('needs a token (401)', async () => {
    await s.http.get(`${TEAMS}/`).expect(401);
    await s.http.get(`${TEAMS}/basic/`).expect(401);
  });

  it('needs can_read_groups to read, can_write_groups to write, can_delete_groups to delete; /basic a token', async () => {
    await s.http.get(`${TEAMS}/`).set(s.as('user')).expect(403);
    const res = await s.http.post(`${TEAMS}/`).set(s.as('reader')).send({ name: 'x' }).expect(403);
    expect(res.body).toEqual({ errors: ['Missing role: can_write_groups'] });
    await s.http.delete(`${TEAMS}/${TEAM}/`).set(s.as('writer')).expect(403);
    await s.http.get(`${TEAMS}/basic/`).set(s.as('user')).expect(200);
    expect(kinds.create).not.toHaveBeenCalled();
    expect(kinds.remove).not.toHaveBeenCalled();
  });

  it('passes the caller, the id and the parsed body to the service', async () => {
    await s.http.post(`${TEAMS}/`).set(s.as('writer')).send({ name: 'Editors' }).expect(201);
    expect(kinds.create).toHaveBeenCalledWith(expect.anything(), s.callers.writer, { name: 'Editors' });
    await s.http.put(`${TEAMS}/${TEAM}/`).set(s.as('writer')).send({ name: 'Desk' }).expect(200);
    expect(kinds.update).toHaveBeenCalledWith(expect.anything(), s.callers.writer, TEAM, { name: 'Desk' });
  });

  it.each([
    [{}, ['name']],
    [{ name: '' }, ['name']],
    [{ name: 7 }, ['name']],
    [{ name: 'a\u0000' }, ['name']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(s.http.post(`${TEAMS}/`).set(s.as('writer')).send(sent), fields, 'in order');
    expect(kinds.create).not.toHaveBeenCalled();
  });

  it('another domain’s team, an unknown or a malformed id is a 404 “Team not found”', async () => {
    await expectNotFound(s, hiddenFromCallers(TEAM), 'Team not found', (id) => [
      s.http.get(`${TEAMS}/${id}/`),
      s.http.patch(`${TEAMS}/${id}/`).send({ name: 'x' }),
    ]);
    expect(kinds.get).not.toHaveBeenCalled();
  });
});
