import { jest } from '@jest/globals';
import type { GroupEntity } from '../../base/model/group.entity.js';
import { GroupLogosService, oneImage } from './group-logos.service.js';
import {
  authContext,
  fixedClock,
  PIXEL_PNG as PNG,
  repoWithTransaction,
  SCRIPT_SVG as SVG,
  uploadedFile,
} from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err } from '../../../test/utils/fakes/expect.js';

const file = (buffer: Buffer, fieldname = 'logo') => uploadedFile(buffer, fieldname);

const caller = (roles: string[] = ['can_read_users']) => authContext({ roles });

function setup(o: { row?: Partial<GroupEntity> | null; hadLogo?: boolean; logo?: object | null } = {}) {
  const repo = repoWithTransaction(EM, {
    ofKind: jest.fn(async () => ('row' in o ? o.row : { id: 'g1', roles: [] })),
    saveLogo: jest.fn(async () => undefined),
    deleteLogo: jest.fn(async () => o.hadLogo ?? true),
    logo: jest.fn(async () => ('logo' in o ? o.logo : { sha256: 'x' })),
  });
  const kinds = {
    emit: jest.fn(async () => undefined),
    logoUrl: jest.fn((c: string, id: string, sha: string) => `/${c}/${id}?v=${sha.slice(0, 12)}`),
  };
  const service = construct(GroupLogosService, repo, kinds, fixedClock(NOW));
  return { service, repo, kinds };
}

describe('oneImage', () => {
  it('takes exactly one image, in the field logo or file, by its bytes', () => {
    expect(oneImage([file(PNG, 'file')])).toEqual({ bytes: PNG, contentType: 'image/png' });
    for (const files of [
      undefined,
      [],
      [file(PNG, 'photo')],
      [file(PNG), file(PNG, 'file')],
      [file(Buffer.alloc(0))],
    ])
      expect(() => oneImage(files)).toThrow(expect.objectContaining({ code: 'teams.IMAGE_MISSING' }));
    // an SVG (or HTML) that claims to be an image is not one
    expect(() => oneImage([file(SVG)])).toThrow(expect.objectContaining({ code: 'teams.IMAGE_TYPE' }));
  });
});

describe('GroupLogosService.upload', () => {
  it('locks the team, stores the logo with the type found from its bytes, and tells of the change', async () => {
    const s = setup();
    const out = await s.service.upload('TEAM', caller(), 'g1', [file(PNG)]);
    expect(s.repo.ofKind).toHaveBeenCalledWith(EM, 'd1', 'TEAM', 'g1', true);
    expect(s.repo.saveLogo).toHaveBeenCalledWith(
      EM,
      {
        group_id: 'g1',
        content_type: 'image/png',
        bytes: PNG,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        date_modified: NOW,
      },
      NOW,
    );
    expect(out.logo).toMatch(/^\/teams\/g1\?v=[0-9a-f]{12}$/);
    expect(s.kinds.emit).toHaveBeenCalledWith(EM, expect.anything(), 'team', 'g1', 'update', {
      id: 'g1',
      logo: out.logo,
    });
  });

  it('a bad upload is refused before the transaction', async () => {
    const s = setup();
    await expect(s.service.upload('GROUP', caller(), 'g1', [file(SVG)])).rejects.toEqual(
      err(400, 'teams.IMAGE_TYPE'),
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('404 in the kind’s words; a group carrying roles the caller does not hold is not theirs to change', async () => {
    let s = setup({ row: null });
    await expect(s.service.upload('TEAM', caller(), 'g1', [file(PNG)])).rejects.toEqual(
      err(404, 'teams.TEAM_NOT_FOUND'),
    );
    await expect(s.service.remove('GROUP', caller(), 'g1')).rejects.toEqual(
      err(404, 'teams.GROUP_NOT_FOUND'),
    );
    s = setup({ row: { id: 'g1', roles: ['can_delete_users'] } });
    await expect(s.service.upload('GROUP', caller(), 'g1', [file(PNG)])).rejects.toEqual(
      err(403, 'teams.ROLES_NOT_HELD'),
    );
    await expect(s.service.remove('GROUP', caller(), 'g1')).rejects.toEqual(err(403, 'teams.ROLES_NOT_HELD'));
    expect(s.repo.saveLogo).not.toHaveBeenCalled();
    expect(s.repo.deleteLogo).not.toHaveBeenCalled();
    expect(s.kinds.emit).not.toHaveBeenCalled();
  });
});

describe('GroupLogosService.remove and get', () => {
  it('remove deletes the logo and tells logo: null; 404 when there was none', async () => {
    let s = setup();
    await s.service.remove('GROUP', caller(), 'g1');
    expect(s.repo.deleteLogo).toHaveBeenCalledWith(EM, 'g1');
    expect(s.kinds.emit).toHaveBeenCalledWith(EM, expect.anything(), 'group', 'g1', 'update', {
      id: 'g1',
      logo: null,
    });
    s = setup({ hadLogo: false });
    await expect(s.service.remove('GROUP', caller(), 'g1')).rejects.toEqual(err(404, 'teams.NO_LOGO'));
    expect(s.kinds.emit).not.toHaveBeenCalled();
  });

  it('get reads the logo of that kind in the caller’s domain; 404 without one', async () => {
    const s = setup();
    await expect(s.service.get('TEAM', caller(), 'g1')).resolves.toEqual({ sha256: 'x' });
    expect(s.repo.logo).toHaveBeenCalledWith('d1', 'TEAM', 'g1');
    await expect(setup({ logo: null }).service.get('TEAM', caller(), 'g1')).rejects.toEqual(
      err(404, 'teams.NO_LOGO'),
    );
  });
});
