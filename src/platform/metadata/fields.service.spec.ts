import { jest } from '@jest/globals';
import type { MetadataFieldEntity } from '../../base/model/metadata.entity.js';
import { authContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import type { CreateFieldDto, ViewFieldDto } from './dto/field.dto.js';
import { FieldsService } from './fields.service.js';
import { MetadataErrors } from './metadata.errors.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const auth = authContext();

const stored = (over: Partial<MetadataFieldEntity> = {}) =>
  ({
    id: 'f1',
    system_domain_id: 'd1',
    name: 'rating',
    label: 'Rating',
    field_type: 'integer',
    options: [],
    min_value: null,
    max_value: null,
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as MetadataFieldEntity;

function setup({
  field = stored() as MetadataFieldEntity | null,
  views = [] as string[],
  hasValues = false,
  known = [] as MetadataFieldEntity[],
} = {}) {
  const repo = repoWithTransaction(EM, {
    manager: { em: 'manager' },
    field: jest.fn(async () => field),
    fieldsNamed: jest.fn(async () => known),
    insertField: jest.fn(async (_em: unknown, f: Partial<MetadataFieldEntity>) => stored(f)),
    insertMissing: jest.fn(async () => undefined),
    updateField: jest.fn(async () => undefined),
    deleteField: jest.fn(async () => undefined),
    viewsUsing: jest.fn(async () => views),
    hasValues: jest.fn(async () => hasValues),
    deleteValues: jest.fn(async () => ({ assets: ['a1', 'a2'], collections: ['c1'] })),
  });
  const assets = { refreshSearchDocument: jest.fn(async () => undefined) };
  const collections = { refreshSearchDocument: jest.fn(async () => undefined) };
  const service = construct(FieldsService, repo, assets, collections);
  return { service, repo, assets, collections };
}

const NAME_RULE = 'must start with a letter or _ and hold only letters, digits, _ . - (at most 100)';

describe('FieldsService', () => {
  describe('create', () => {
    it('registers the field in the caller’s domain with the label trimmed; a taken name is a 409', async () => {
      const s = setup();
      const out = await s.service.create(auth, {
        name: 'rating',
        label: ' Rating ',
        field_type: 'integer',
        min_value: 0,
        options: [{ value: 'x' }],
      } as CreateFieldDto);
      expect(s.repo.insertField).toHaveBeenCalledWith(EM, {
        system_domain_id: 'd1',
        name: 'rating',
        label: 'Rating',
        field_type: 'integer',
        min_value: 0,
        options: [{ label: null, value: 'x' }],
      });
      expect(out).toMatchObject({
        name: 'rating',
        label: 'Rating',
        date_created: '2026-05-01T12:00:00.000000+00:00',
      });
      const taken = setup();
      taken.repo.insertField.mockRejectedValue(Object.assign(new Error('dup'), { code: '23505' }));
      await expect(
        taken.service.create(auth, { name: 'rating', label: 'R', field_type: 'string' }).catch(wire),
      ).resolves.toEqual(wire(MetadataErrors.FIELD_NAME_TAKEN()));
    });

    it.each([
      [{ name: '1st', label: 'x', field_type: 'string' }, { name: NAME_RULE }],
      [{ name: "a'; DROP TABLE x;--", label: 'x', field_type: 'string' }, { name: NAME_RULE }],
      [{ name: 'ok', label: '  ', field_type: 'string' }, { label: 'must not be blank' }],
      [
        { name: 'ok', label: 'x', field_type: 'float', min_value: 2, max_value: 1 },
        { min_value: 'must not be above max_value' },
      ],
      [
        { name: 'ok', label: 'x', field_type: 'drop_down', options: [{ value: 'a' }, { value: 'a' }] },
        { 'options.1.value': 'is given twice' },
      ],
    ])('%j is a 400 %j before any statement', async (body, problems) => {
      const s = setup();
      await expect(s.service.create(auth, body as CreateFieldDto).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.INVALID(problems)),
      );
      expect(s.repo.transaction).not.toHaveBeenCalled();
    });
  });

  describe('update', () => {
    it('changes the given properties of the field, held for the change', async () => {
      const s = setup();
      await s.service.update(auth, 'rating', { label: 'Stars', multi: true });
      expect(s.repo.field).toHaveBeenCalledWith(EM, 'd1', 'rating', 'pessimistic_write');
      expect(s.repo.updateField).toHaveBeenCalledWith(EM, 'f1', { label: 'Stars', multi: true });
    });

    it('a rename is a 400; an unknown or malformed name a 404; a type change with values a 409', async () => {
      const s = setup();
      await expect(s.service.update(auth, 'rating', { name: 'other' }).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.INVALID({ name: 'a field is not renamed: must be the name in the path' })),
      );
      await expect(setup({ field: null }).service.update(auth, 'nope', {}).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.FIELD_NOT_FOUND()),
      );
      const bad = setup();
      await expect(bad.service.get(auth, '../etc').catch(wire)).resolves.toEqual(
        wire(MetadataErrors.FIELD_NOT_FOUND()),
      );
      expect(bad.repo.field).not.toHaveBeenCalled();
      const used = setup({ hasValues: true });
      await expect(
        used.service.update(auth, 'rating', { field_type: 'string' }).catch(wire),
      ).resolves.toEqual(
        wire(
          MetadataErrors.FIELD_HAS_VALUES({
            field_type: 'objects have values of this field: its type does not change',
          }),
        ),
      );
      expect(used.repo.updateField).not.toHaveBeenCalled();
      const free = setup();
      await free.service.update(auth, 'rating', { field_type: 'string' });
      expect(free.repo.updateField).toHaveBeenCalledWith(EM, 'f1', { field_type: 'string' });
    });

    it('min_value above the stored max_value is a 400', async () => {
      const s = setup({ field: stored({ max_value: 5 }) });
      await expect(s.service.update(auth, 'rating', { min_value: 6 }).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.INVALID({ min_value: 'must not be above max_value' })),
      );
      expect(s.repo.updateField).not.toHaveBeenCalled();
    });
  });

  describe('remove', () => {
    it('a field views name is a 409 naming them, and nothing goes', async () => {
      const s = setup({ views: ['Photo', 'Rights'] });
      await expect(s.service.remove(auth, 'rating').catch(wire)).resolves.toEqual(
        wire(
          MetadataErrors.FIELD_IN_USE({
            field: 'is named by the views: Photo, Rights; remove it from them first',
          }),
        ),
      );
      expect(s.repo.deleteValues).not.toHaveBeenCalled();
      expect(s.collections.refreshSearchDocument).not.toHaveBeenCalled();
      expect(s.repo.deleteField).not.toHaveBeenCalled();
    });

    it('else its values leave the domain’s objects, their search documents are rebuilt, and the field goes, in one transaction', async () => {
      const s = setup();
      await s.service.remove(auth, 'rating');
      expect(s.repo.transaction).toHaveBeenCalledTimes(1);
      expect(s.repo.deleteValues).toHaveBeenCalledWith(EM, 'd1', 'rating');
      expect(s.assets.refreshSearchDocument.mock.calls).toEqual([
        [EM, 'a1'],
        [EM, 'a2'],
      ]);
      expect(s.collections.refreshSearchDocument.mock.calls).toEqual([[EM, 'c1']]);
      expect(s.repo.deleteField).toHaveBeenCalledWith(EM, 'f1');
    });
  });

  describe('forView', () => {
    it('registers the entries not registered yet (string, multi, the name as label unless given) and keeps only names', async () => {
      const s = setup({ known: [stored()] });
      const out = await s.service.forView(EM as never, auth, [
        { name: 'rating', field_type: 'string', label: 'ignored' },
        { name: 'mood', label: ' Mood ' },
        { name: 'tone', field_type: 'drop_down', multi: false, options: [{ value: 'warm' }] },
      ] as ViewFieldDto[]);
      expect(out).toEqual([{ name: 'rating' }, { name: 'mood' }, { name: 'tone' }]);
      expect(s.repo.fieldsNamed).toHaveBeenCalledWith(EM, 'd1', ['rating', 'mood', 'tone'], true);
      expect(s.repo.insertMissing).toHaveBeenCalledWith(EM, [
        { multi: true, system_domain_id: 'd1', name: 'mood', label: 'Mood', field_type: 'string' },
        {
          multi: false,
          options: [{ label: null, value: 'warm' }],
          system_domain_id: 'd1',
          name: 'tone',
          label: 'tone',
          field_type: 'drop_down',
        },
      ]);
    });

    it.each([
      [[{ name: 'a' }, { name: 'a' }], { 'view_fields.1.name': 'is given twice' }],
      [[{ name: 'ok' }, { name: '1st' }], { 'view_fields.1.name': NAME_RULE }],
      [
        [{ name: 'ok', min_value: 3, max_value: 1 }],
        { 'view_fields.0.min_value': 'must not be above max_value' },
      ],
    ])('%j is a 400 %j, registering nothing', async (entries, problems) => {
      const s = setup();
      await expect(
        s.service.forView(EM as never, auth, entries as ViewFieldDto[]).catch(wire),
      ).resolves.toEqual(wire(MetadataErrors.INVALID(problems)));
      expect(s.repo.insertMissing).not.toHaveBeenCalled();
    });
  });
});
