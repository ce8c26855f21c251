import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { UserRights } from '../../credentials/tokens/acting-rights.service.js';
import { UserExtrasService } from './user-extras.service.js';
import {
  fixedClock,
  memberContext,
  PIXEL_PNG as PNG,
  recordingEvents,
  repoWithTransaction,
  uploadedFile,
} from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err, expectEvent } from '../../../test/utils/fakes/expect.js';

const HTML = Buffer.from('<!doctype html><script>alert(1)</script>');
const file = (buffer: Buffer, fieldname = 'photo') => uploadedFile(buffer, fieldname);

const caller = (over: Partial<AuthContext> = {}) => memberContext({ userId: 'me', ...over });

const rights = (over: Partial<UserRights> = {}) =>
  ({
    member: true,
    active: true,
    isAdmin: false,
    isSuperAdmin: false,
    roles: new Set(['can_read_users']),
    ...over,
  }) as UserRights;

function setup(
  o: { target?: UserRights | null; member?: boolean; hadPhoto?: boolean; photo?: object | null } = {},
) {
  const repo = repoWithTransaction(EM, {
    lockMembership: jest.fn(async () => o.member ?? true),
    savePhoto: jest.fn(async () => undefined),
    deletePhoto: jest.fn(async () => o.hadPhoto ?? true),
    photo: jest.fn(async () => ('photo' in o ? o.photo : { sha256: 'x' })),
  });
  const acting = { rightsOf: jest.fn(async () => ('target' in o ? o.target : rights())) };
  const events = recordingEvents();
  const service = construct(UserExtrasService, acting, events, fixedClock(NOW), repo);
  return { service, repo, acting, events };
}

describe('UserExtrasService.hasRole', () => {
  it('answers a role the member holds in the caller’s domain', async () => {
    const s = setup();
    await expect(s.service.hasRole(caller(), 'u2', 'can_read_users')).resolves.toEqual({
      user_id: 'u2',
      role: 'can_read_users',
    });
    expect(s.acting.rightsOf).toHaveBeenCalledWith('u2', 'd1');
  });

  it('404 for a role not held, an unknown role name, and someone not a member of the domain', async () => {
    const s = setup();
    await expect(s.service.hasRole(caller(), 'u2', 'can_write_users')).rejects.toEqual(
      err(404, 'users.ROLE_NOT_HELD'),
    );
    await expect(s.service.hasRole(caller(), 'u2', 'can_fly')).rejects.toEqual(
      err(404, 'users.ROLE_NOT_HELD'),
    );
    await expect(setup({ target: null }).service.hasRole(caller(), 'u2', 'can_read_users')).rejects.toEqual(
      err(404, 'users.NOT_FOUND'),
    );
    await expect(
      setup({ target: rights({ member: false }) }).service.hasRole(caller(), 'u2', 'can_read_users'),
    ).rejects.toEqual(err(404, 'users.NOT_FOUND'));
  });
});

describe('UserExtrasService.setPhoto', () => {
  it('stores the bytes under the member and the domain with the type found from them, and records the event', async () => {
    const s = setup();
    const out = await s.service.setPhoto(caller(), 'me', [file(PNG, 'file')]);
    expect(out.photo).toMatch(/^\/API\/users\/v1\/users\/me\/photo\/\?v=[0-9a-f]{12}$/);
    expect(s.repo.lockMembership).toHaveBeenCalledWith(EM, 'me', 'd1');
    expect(s.repo.savePhoto).toHaveBeenCalledWith(EM, {
      user_id: 'me',
      system_domain_id: 'd1',
      content_type: 'image/png',
      bytes: PNG,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      date_modified: NOW,
    });
    expect(s.events.record).toHaveBeenCalledWith(EM, {
      systemDomainId: 'd1',
      objectId: 'me',
      realm: 'user',
      operation: 'update',
      eventType: 'users',
      data: { id: 'me', photo: out.photo },
      requestId: 'r1',
    });
    // one's own photo needs no rank check
    expect(s.acting.rightsOf).not.toHaveBeenCalled();
  });

  it('refuses hostile or missing uploads before anything is read or written', async () => {
    const s = setup();
    const cases: [Parameters<UserExtrasService['setPhoto']>[2], string][] = [
      [[file(HTML)], 'users.PHOTO_TYPE'],
      [[file(Buffer.alloc(0))], 'users.PHOTO_MISSING'],
      [[file(PNG, 'photo'), file(PNG, 'file')], 'users.PHOTO_MISSING'],
      [[file(PNG, 'avatar')], 'users.PHOTO_MISSING'],
      [[], 'users.PHOTO_MISSING'],
      [undefined, 'users.PHOTO_MISSING'],
    ];
    for (const [files, code] of cases) {
      await expect(s.service.setPhoto(caller(), 'me', files)).rejects.toEqual(err(400, code));
    }
    expect(s.repo.transaction).not.toHaveBeenCalled();
    expect(s.repo.savePhoto).not.toHaveBeenCalled();
  });

  it('administrators’ photos only by administrators, super administrators’ only by super administrators', async () => {
    let s = setup({ target: rights({ isAdmin: true }) });
    await expect(s.service.setPhoto(caller(), 'u2', [file(PNG)])).rejects.toEqual(
      err(403, 'users.ADMIN_RANK'),
    );
    await expect(s.service.deletePhoto(caller(), 'u2')).rejects.toEqual(err(403, 'users.ADMIN_RANK'));
    expect(s.repo.transaction).not.toHaveBeenCalled();
    await s.service.setPhoto(caller({ isAdmin: true }), 'u2', [file(PNG)]);
    expect(s.repo.savePhoto).toHaveBeenCalled();
    s = setup({ target: rights({ isAdmin: true, isSuperAdmin: true }) });
    await expect(s.service.setPhoto(caller({ isAdmin: true }), 'u2', [file(PNG)])).rejects.toEqual(
      err(403, 'users.SUPER_ADMIN_RANK'),
    );
    expect(s.repo.savePhoto).not.toHaveBeenCalled();
  });

  it('404 for someone not a member of the caller’s domain (by rights, or by the locked membership)', async () => {
    let s = setup({ target: null });
    await expect(s.service.setPhoto(caller(), 'u2', [file(PNG)])).rejects.toEqual(
      err(404, 'users.NOT_FOUND'),
    );
    s = setup({ member: false });
    await expect(s.service.setPhoto(caller(), 'u2', [file(PNG)])).rejects.toEqual(
      err(404, 'users.NOT_FOUND'),
    );
    expect(s.repo.savePhoto).not.toHaveBeenCalled();
    expect(s.events.record).not.toHaveBeenCalled();
  });
});

describe('UserExtrasService photo reads and removal', () => {
  it('deletePhoto removes the domain’s photo and records photo: null; 404 when there was none', async () => {
    let s = setup();
    await s.service.deletePhoto(caller(), 'me');
    expect(s.repo.deletePhoto).toHaveBeenCalledWith(EM, 'me', 'd1');
    expectEvent(s.events, EM, { operation: 'update', data: { id: 'me', photo: null } });
    s = setup({ hadPhoto: false });
    await expect(s.service.deletePhoto(caller(), 'me')).rejects.toEqual(err(404, 'users.NO_PHOTO'));
    expect(s.events.record).not.toHaveBeenCalled();
  });

  it('photo reads the one of the caller’s domain; 404 without one', async () => {
    const s = setup();
    await expect(s.service.photo(caller(), 'u2')).resolves.toEqual({ sha256: 'x' });
    expect(s.repo.photo).toHaveBeenCalledWith('u2', 'd1');
    await expect(setup({ photo: null }).service.photo(caller(), 'u2')).rejects.toEqual(
      err(404, 'users.NO_PHOTO'),
    );
  });
});

describe('UserExtrasService.reindex', () => {
  it('records a reindex event carrying the request’s id for a member; 404 for anyone else', async () => {
    let s = setup();
    const out = await s.service.reindex(caller(), 'u2');
    expect(out).toEqual({ id: expect.any(String), user_id: 'u2', job_id: out.id, status: 'READY' });
    expectEvent(s.events, EM, {
      operation: 'reindex',
      objectId: 'u2',
      data: { reindex_id: out.id, job_id: out.id, user_id: 'u2' },
    });
    s = setup({ member: false });
    await expect(s.service.reindex(caller(), 'u2')).rejects.toEqual(err(404, 'users.NOT_FOUND'));
    expect(s.events.record).not.toHaveBeenCalled();
  });
});
