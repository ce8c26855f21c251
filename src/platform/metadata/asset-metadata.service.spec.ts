import { jest } from '@jest/globals';
import type { AssetEntity } from '../../base/model/asset.entity.js';
import type {
  MetadataFieldEntity,
  MetadataValueEntity,
  MetadataViewEntity,
} from '../../base/model/metadata.entity.js';
import { AssetsErrors } from '../assets/assets.errors.js';
import type { CollectionsService } from '../assets/collections.service.js';
import { AssetMetadataService, MAX_VALUE_LENGTH, MAX_VALUES_PER_FIELD } from './asset-metadata.service.js';
import { MetadataErrors } from './metadata.errors.js';
import type { FieldsService } from './fields.service.js';
import { ObjectMetadataService } from './object-metadata.service.js';
import { authContext, fixedClock, recordingEvents, wire } from '../../../test/utils/fakes.js';
import { EM, MANAGER, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import {
  expectAssetTouched,
  expectValuesWritten,
  fieldRow,
  fieldValues as values,
  metadataRepo,
  T0,
  T1,
  valueRow as value,
} from '../../../test/utils/fakes/metadata.js';
import { assetRow as asset } from '../../../test/utils/fakes/assets.js';

const auth = authContext();

/** A registered field as a view registers one (string, several values). */
const field = (name: string, over: Partial<MetadataFieldEntity> = {}) =>
  fieldRow(name, { label: name, ...over });
const FIELDS = [
  field('description'),
  field('keywords', { required: true }),
  field('checksum', { read_only: true }),
];
const VIEW = { id: 'view1', view_fields: FIELDS.map((f) => ({ name: f.name })) } as MetadataViewEntity;
function setup({
  stored = asset() as AssetEntity | null,
  present = [value('keywords', ['k'])] as MetadataValueEntity[],
} = {}) {
  const repo = metadataRepo(stored, present);
  const views = { get: jest.fn(async () => VIEW), fieldsOf: jest.fn(async () => FIELDS) };
  const assets = { refreshSearchDocument: jest.fn(async () => undefined) };
  const events = recordingEvents();
  // the real writer over the same fakes: the view route writes through it
  const objects = construct(
    ObjectMetadataService,
    repo,
    {} as FieldsService,
    assets,
    events,
    fixedClock(NOW),
    {} as CollectionsService,
  );
  const service = construct(AssetMetadataService, repo, views, objects);
  return { service, repo, views, assets, events };
}

const SHAPE = 'must be {field_values: [{value}]}';

describe('AssetMetadataService', () => {
  describe('put: the body against the view', () => {
    it.each([
      [{ nope: values('x') }, { 'metadata_values.nope': 'is not a field of this view' }],
      [{ checksum: values('x') }, { 'metadata_values.checksum': 'is read-only' }],
      [
        { nope: values('x'), checksum: values('y'), description: values('ok') },
        { 'metadata_values.nope': 'is not a field of this view', 'metadata_values.checksum': 'is read-only' },
      ],
      [{ keywords: 'boats' }, { 'metadata_values.keywords': SHAPE }],
      [{ keywords: [] }, { 'metadata_values.keywords': SHAPE }],
      [{ keywords: { field_values: 'boats' } }, { 'metadata_values.keywords': SHAPE }],
      [{ keywords: { field_values: [{ val: 'x' }] } }, { 'metadata_values.keywords': SHAPE }],
      [
        { keywords: values({ nested: true }) },
        { 'metadata_values.keywords': 'each value must be a string, a number or a boolean' },
      ],
      [
        { keywords: values(null) },
        { 'metadata_values.keywords': 'each value must be a string, a number or a boolean' },
      ],
      [{ keywords: values(Infinity) }, { 'metadata_values.keywords': 'values must be finite numbers' }],
      [
        { keywords: values(...Array.from({ length: MAX_VALUES_PER_FIELD + 1 }, (_, i) => i)) },
        { 'metadata_values.keywords': `must have at most ${MAX_VALUES_PER_FIELD} values` },
      ],
      [
        { keywords: values('x'.repeat(MAX_VALUE_LENGTH + 1)) },
        { 'metadata_values.keywords': `each value must be at most ${MAX_VALUE_LENGTH} characters` },
      ],
      [
        { ['n'.repeat(150)]: values('x') },
        { [`metadata_values.${'n'.repeat(100)}`]: 'is not a field of this view' },
      ],
    ])('%j is a 400 naming %j, before any statement', async (body, problems) => {
      const s = setup();
      await expect(s.service.put(auth, 'a1', 'view1', body).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.INVALID(problems)),
      );
      expect(s.repo.transaction).not.toHaveBeenCalled();
    });

    it('takes values of the registered type, up to the limits; another type is a 400 (issue 38)', async () => {
      const s = setup();
      await s.service.put(auth, 'a1', 'view1', {
        keywords: values(...Array.from({ length: MAX_VALUES_PER_FIELD }, (_, i) => `k${i}`)),
        description: values('x'.repeat(MAX_VALUE_LENGTH), 'y'),
      });
      expect(s.repo.upsertValues).toHaveBeenCalledTimes(2);
      await expect(
        setup()
          .service.put(auth, 'a1', 'view1', { description: values(1.5) })
          .catch(wire),
      ).resolves.toEqual(
        wire(
          MetadataErrors.INVALID({
            'metadata_values.description': 'each value must be a string (field_type string)',
          }),
        ),
      );
    });
  });

  describe('put: the change', () => {
    it('sets named fields, clears emptied ones, on the current version, with the time of the change', async () => {
      const s = setup();
      await s.service.put(auth, 'a1', 'view1', {
        keywords: values('boats', 'two'),
        description: { field_values: [] },
      });
      expect(s.repo.asset).toHaveBeenCalledWith(EM, 'd1', 'a1', true);
      expectValuesWritten(s.repo, 'keywords', ['boats', 'two']);
      expect(s.repo.deleteValues).toHaveBeenCalledWith(EM, 'v1', 'description');
      expect(s.repo.upsertValues).toHaveBeenCalledTimes(1);
    });

    it('then marks the asset modified, rebuilds its search document and records the event, in the same transaction', async () => {
      const s = setup();
      await s.service.put(auth, 'a1', 'view1', { keywords: values('boats') });
      expect(s.repo.transaction).toHaveBeenCalledTimes(1);
      expectAssetTouched(s);
      expect(s.events.record).toHaveBeenCalledWith(EM, {
        systemDomainId: 'd1',
        objectId: 'a1',
        realm: 'metadata',
        operation: 'update',
        eventType: 'assets',
        data: {
          version_id: 'v1',
          metadata_values: {
            keywords: {
              field_values: [{ value: 'boats' }],
              date_created: '2026-05-01T12:00:00.000000+00:00',
            },
          },
          object_type: 'assets',
          object_id: 'a1',
        },
        requestId: 'r1',
      });
    });

    it('a required field missing after the change is a 400 thrown inside the transaction: nothing is touched or told', async () => {
      const s = setup({ present: [] });
      await expect(
        s.service.put(auth, 'a1', 'view1', { description: values('x') }).catch(wire),
      ).resolves.toEqual(wire(MetadataErrors.INVALID({ 'metadata_values.keywords': 'is required' })));
      // the values written before the check roll back with the transaction the error leaves
      expect(s.repo.upsertValues).toHaveBeenCalled();
      expect(s.repo.values).toHaveBeenCalledWith(EM, 'v1', ['keywords']);
      expect(s.repo.touchAsset).not.toHaveBeenCalled();
      expect(s.assets.refreshSearchDocument).not.toHaveBeenCalled();
      expect(s.events.record).not.toHaveBeenCalled();
    });

    it('clearing a required field is refused the same way', async () => {
      const s = setup({ present: [] });
      await expect(
        s.service.put(auth, 'a1', 'view1', { keywords: { field_values: [] } }).catch(wire),
      ).resolves.toEqual(wire(MetadataErrors.INVALID({ 'metadata_values.keywords': 'is required' })));
      expect(s.events.record).not.toHaveBeenCalled();
    });

    it('naming no field changes nothing and tells nobody', async () => {
      const s = setup();
      const out = await s.service.put(auth, 'a1', 'view1', {});
      expect(out).toMatchObject({ object_id: 'a1', view_id: 'view1', version_id: 'v1' });
      expect(s.repo.upsertValues).not.toHaveBeenCalled();
      expect(s.repo.touchAsset).not.toHaveBeenCalled();
      expect(s.assets.refreshSearchDocument).not.toHaveBeenCalled();
      expect(s.events.record).not.toHaveBeenCalled();
    });

    it('a deleted asset, another domain’s or one without a version is not found', async () => {
      for (const stored of [asset({ date_deleted: NOW }), null, asset({ current_version_id: null })]) {
        const s = setup({ stored });
        await expect(
          s.service.put(auth, 'a1', 'view1', { keywords: values('k') }).catch(wire),
        ).resolves.toEqual(wire(AssetsErrors.NOT_FOUND()));
        await expect(s.service.get(auth, 'a1', 'view1').catch(wire)).resolves.toEqual(
          wire(AssetsErrors.NOT_FOUND()),
        );
        expect(s.repo.upsertValues).not.toHaveBeenCalled();
      }
    });

    it('an unknown view stops it before the asset is read', async () => {
      const s = setup();
      s.views.get.mockRejectedValue(MetadataErrors.VIEW_NOT_FOUND());
      await expect(s.service.put(auth, 'a1', 'view1', {}).catch(wire)).resolves.toEqual(
        wire(MetadataErrors.VIEW_NOT_FOUND()),
      );
      expect(s.views.get).toHaveBeenCalledWith(auth, 'view1');
      expect(s.repo.asset).not.toHaveBeenCalled();
    });
  });

  describe('get', () => {
    it('the view’s fields in the view’s order, dated by the version and the latest value', async () => {
      const s = setup({
        present: [value('keywords', ['k'], T1), value('description', ['d'], T0), value('other', ['o'], NOW)],
      });
      const out = await s.service.get(auth, 'a1', 'view1');
      expect(s.repo.asset).toHaveBeenCalledWith(MANAGER, 'd1', 'a1', false);
      expect(s.views.fieldsOf).toHaveBeenCalledWith(MANAGER, auth, VIEW);
      expect(s.repo.values).toHaveBeenCalledWith(MANAGER, 'v1', ['description', 'keywords', 'checksum']);
      expect(Object.keys(out.metadata_values)).toEqual(['description', 'keywords']);
      expect(out).toMatchObject({
        object_id: 'a1',
        object_type: 'assets',
        view_id: 'view1',
        version_id: 'v1',
        date_created: '2026-04-01T10:00:00.000000+00:00',
        date_modified: '2026-04-02T10:00:00.000000+00:00',
      });
    });
  });
});
