import { jest } from '@jest/globals';
import type {
  MetadataCategoryEntity,
  MetadataFieldEntity,
  MetadataViewEntity,
} from '../../base/model/metadata.entity.js';
import type { ViewBodyDto } from './dto/view.dto.js';
import { MetadataErrors } from './metadata.errors.js';
import { ViewsService } from './views.service.js';
import { authContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import { EM, MANAGER, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const V1 = '11111111-1111-4111-8111-111111111111';
const V2 = '22222222-2222-4222-8222-222222222222';
const auth = authContext();

const view = (over: Partial<MetadataViewEntity> = {}) =>
  ({
    id: V1,
    name: 'Photo',
    description: null,
    view_fields: [],
    system_domain_id: 'd1',
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as MetadataViewEntity;

function setup({ stored = view() as MetadataViewEntity | null, known = 0, taken = false } = {}) {
  const repo = repoWithTransaction(EM, {
    manager: MANAGER,
    view: jest.fn(async () => stored),
    insertView: jest.fn(async () => V1),
    updateView: jest.fn(async () => undefined),
    deleteView: jest.fn(async () => undefined),
    dropViewFromCategories: jest.fn(async () => undefined),
    countViews: jest.fn(async () => known),
    categoryNameTaken: jest.fn(async () => taken),
    insertCategory: jest.fn(
      async (fields: Partial<MetadataCategoryEntity>) =>
        ({ id: 'c1', date_created: NOW, date_modified: NOW, ...fields }) as MetadataCategoryEntity,
    ),
  });
  const fields = {
    forView: jest.fn(async (_em: unknown, _auth: unknown, entries: { name: string }[]) =>
      entries.map((e) => ({ name: e.name })),
    ),
    definitions: jest.fn(
      async (_em: unknown, _d: string, names: string[]) => new Map(names.map((n) => [n, registered(n)])),
    ),
  };
  return {
    service: construct(ViewsService, repo, fields),
    repo,
    fields,
  };
}

const registered = (name: string) =>
  ({
    name,
    label: `Label of ${name}`,
    field_type: 'string',
    options: [],
    date_created: NOW,
    date_modified: NOW,
  }) as unknown as MetadataFieldEntity;

const body = (fields: { name: string }[], name = 'Photo') => ({ name, view_fields: fields }) as ViewBodyDto;

describe('ViewsService', () => {
  describe('views', () => {
    it('get: a view of the caller’s domain, else VIEW_NOT_FOUND; in the given transaction when one is', async () => {
      const s = setup();
      expect((await s.service.get(auth, V1)).id).toBe(V1);
      expect(s.repo.view).toHaveBeenCalledWith(MANAGER, 'd1', V1);
      await s.service.get(auth, V1, EM as never);
      expect(s.repo.view).toHaveBeenLastCalledWith(EM, 'd1', V1);
      await expect(setup({ stored: null }).service.get(auth, V1).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.VIEW_NOT_FOUND()),
      );
    });

    it('create: the name trimmed, the entries registered (FieldsService.forView) and kept as names, in one transaction', async () => {
      const s = setup({ stored: view({ view_fields: [{ name: 'description' }] }) });
      const out = await s.service.create(auth, {
        ...body([{ name: 'description' }], '  Photo  '),
        description: 'd',
      });
      expect(s.fields.forView).toHaveBeenCalledWith(EM, auth, [{ name: 'description' }]);
      expect(s.repo.insertView).toHaveBeenCalledWith(EM, {
        system_domain_id: 'd1',
        name: 'Photo',
        description: 'd',
        view_fields: [{ name: 'description' }],
      });
      // each entry answered as the registered field
      expect(out.view_fields).toEqual([
        expect.objectContaining({ name: 'description', label: 'Label of description', field_type: 'string' }),
      ]);
    });

    it('an entry naming no registered field (removed meanwhile) is left out of the answer', async () => {
      const s = setup({ stored: view({ view_fields: [{ name: 'gone' }, { name: 'kept' }] }) });
      s.fields.definitions.mockResolvedValue(new Map([['kept', registered('kept')]]));
      const out = await s.service.getView(auth, V1);
      expect(out.view_fields.map((f) => f.name)).toEqual(['kept']);
    });

    it('a blank name is a 400 before any statement', async () => {
      const s = setup();
      const sent = body([], '   ');
      for (const call of [s.service.create(auth, sent), s.service.replace(auth, V1, sent)])
        await expect(call.catch(wire)).resolves.toEqual(
          wire(MetadataErrors.INVALID({ name: 'must not be blank' })),
        );
      expect(s.repo.transaction).not.toHaveBeenCalled();
      expect(s.fields.forView).not.toHaveBeenCalled();
    });

    it('replace: an unknown view is VIEW_NOT_FOUND and nothing is written; else the whole view is replaced', async () => {
      const gone = setup({ stored: null });
      await expect(gone.service.replace(auth, V1, body([])).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.VIEW_NOT_FOUND()),
      );
      expect(gone.repo.updateView).not.toHaveBeenCalled();
      const s = setup();
      await s.service.replace(auth, V1, body([{ name: 'only' }], 'renamed'));
      expect(s.repo.updateView).toHaveBeenCalledWith(EM, 'd1', V1, {
        name: 'renamed',
        description: null,
        view_fields: [{ name: 'only' }],
      });
    });

    it('remove: the view and its place in the domain’s categories go in one transaction', async () => {
      const s = setup();
      await s.service.remove(auth, V1);
      expect(s.repo.transaction).toHaveBeenCalledTimes(1);
      expect(s.repo.view).toHaveBeenCalledWith(EM, 'd1', V1);
      expect(s.repo.deleteView).toHaveBeenCalledWith(EM, 'd1', V1);
      expect(s.repo.dropViewFromCategories).toHaveBeenCalledWith(EM, V1, 'd1');
      const gone = setup({ stored: null });
      await expect(gone.service.remove(auth, V1).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.VIEW_NOT_FOUND()),
      );
      expect(gone.repo.deleteView).not.toHaveBeenCalled();
      expect(gone.repo.dropViewFromCategories).not.toHaveBeenCalled();
    });
  });

  describe('categories', () => {
    const invalidViews = MetadataErrors.INVALID({ view_ids: 'must be ids of views of this domain' });

    it('every view id must be a view of the domain (repeated ids count once)', async () => {
      const s = setup({ known: 1 });
      await expect(
        s.service.createCategory(auth, { name: 'photos', view_ids: [V1, V2] }).catch(wire),
      ).resolves.toEqual(wire(invalidViews));
      expect(s.repo.countViews).toHaveBeenCalledWith('d1', [V1, V2]);
      expect(s.repo.insertCategory).not.toHaveBeenCalled();
      const ok = setup({ known: 1 });
      const out = await ok.service.createCategory(auth, {
        name: 'photos',
        label: 'Photos',
        view_ids: [V1, V1],
      });
      expect(ok.repo.insertCategory).toHaveBeenCalledWith({
        system_domain_id: 'd1',
        object_type: 'assets',
        name: 'photos',
        label: 'Photos',
        view_ids: [V1],
      });
      expect(out).toMatchObject({ id: 'c1', name: 'photos', object_type: 'assets', view_ids: [V1] });
    });

    it('an id that is no uuid is refused without a statement; no ids at all is fine', async () => {
      const s = setup();
      await expect(
        s.service.createCategory(auth, { name: 'x', view_ids: ['nope'] }).catch(wire),
      ).resolves.toEqual(wire(invalidViews));
      expect(s.repo.countViews).not.toHaveBeenCalled();
      await s.service.createCategory(auth, { name: 'x' });
      expect(s.repo.insertCategory).toHaveBeenCalledWith(expect.objectContaining({ view_ids: [] }));
    });

    it('a name the domain’s asset categories already have is a 409, found before or at the insert', async () => {
      const s = setup({ taken: true });
      await expect(s.service.createCategory(auth, { name: ' photos ' }).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.CATEGORY_NAME_TAKEN()),
      );
      expect(s.repo.categoryNameTaken).toHaveBeenCalledWith('d1', 'assets', 'photos');
      expect(s.repo.insertCategory).not.toHaveBeenCalled();
      // a concurrent request took it between the check and the insert
      const raced = setup();
      raced.repo.insertCategory.mockRejectedValue(Object.assign(new Error('dup'), { code: '23505' }));
      await expect(raced.service.createCategory(auth, { name: 'photos' }).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.CATEGORY_NAME_TAKEN()),
      );
      const broken = setup();
      const other = Object.assign(new Error('fk'), { code: '23503' });
      broken.repo.insertCategory.mockRejectedValue(other);
      await expect(broken.service.createCategory(auth, { name: 'photos' })).rejects.toBe(other);
    });
  });
});
