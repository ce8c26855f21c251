import { jest } from '@jest/globals';
import type { AssetEntity } from '../../base/model/asset.entity.js';
import { AssetsErrors } from '../assets/assets.errors.js';
import { CollectionsErrors } from '../assets/collections.errors.js';
import { authContext, fixedClock, recordingEvents, wire } from '../../../test/utils/fakes.js';
import { MetadataErrors } from './metadata.errors.js';
import { ObjectMetadataService } from './object-metadata.service.js';
import { EM, MANAGER, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import {
  expectAssetTouched,
  expectValuesWritten,
  fieldRow as field,
  fieldValues as vals,
  metadataRepo,
  T0,
  T1,
  valueRow as row,
} from '../../../test/utils/fakes/metadata.js';
import { expectEvent } from '../../../test/utils/fakes/expect.js';

const auth = authContext();

const REGISTRY = [field('tags'), field('count', { field_type: 'integer', multi: false })];

function setup({
  stored = { id: 'a1', current_version_id: 'v1', date_deleted: null } as Partial<AssetEntity> | null,
  present = [row('tags', ['boats'])],
} = {}) {
  const repo = metadataRepo(stored, present, {
    collection: jest.fn(async () => ({ id: 'c1', date_created: T0 })),
    collectionValues: jest.fn(async () => [{ ...row('tags', ['boats']), collection_id: 'c1' }]),
    upsertCollectionValues: jest.fn(async () => undefined),
    deleteCollectionValues: jest.fn(async () => undefined),
    touchCollection: jest.fn(async () => undefined),
  });
  const collections = {
    view: jest.fn(async () => ({ id: 'c1' })),
    refreshSearchDocument: jest.fn(async () => undefined),
  };
  const fields = {
    definitions: jest.fn(
      async (_em: unknown, _d: string, names: string[]) =>
        new Map(REGISTRY.filter((f) => names.includes(f.name)).map((f) => [f.name, f])),
    ),
  };
  const assets = { refreshSearchDocument: jest.fn(async () => undefined) };
  const events = recordingEvents();
  const service = construct(
    ObjectMetadataService,
    repo,
    fields,
    assets,
    events,
    fixedClock(NOW),
    collections,
  );
  return { service, repo, fields, assets, events, collections };
}

describe('ObjectMetadataService', () => {
  it('get: the values of registered fields on the current version, dated by the version and the latest value', async () => {
    const s = setup({ present: [row('tags', ['boats'], T1), row('unregistered', ['x'], NOW)] });
    const out = await s.service.get(auth, 'assets', 'a1');
    expect(s.repo.asset).toHaveBeenCalledWith(MANAGER, 'd1', 'a1', false);
    expect(out).toEqual({
      object_id: 'a1',
      object_type: 'assets',
      version_id: 'v1',
      job_id: null,
      metadata_values: {
        tags: {
          field_values: [{ value: 'boats' }],
          date_created: '2026-04-02T10:00:00.000000+00:00',
          date_modified: '2026-04-02T10:00:00.000000+00:00',
        },
      },
      date_created: '2026-04-01T10:00:00.000000+00:00',
      date_modified: '2026-04-02T10:00:00.000000+00:00',
    });
  });

  it('put: the fields are read held against removal, then the asset locked; append adds to what is there; one event', async () => {
    const s = setup();
    await s.service.put(auth, 'assets', 'a1', {
      mode: 'append',
      metadata_values: { tags: vals('harbour'), count: { mode: 'overwrite', ...vals(3) } },
    });
    expect(s.fields.definitions).toHaveBeenCalledWith(EM, 'd1', ['tags', 'count'], true);
    expect(s.repo.asset).toHaveBeenCalledWith(EM, 'd1', 'a1', true);
    expectValuesWritten(s.repo, 'tags', ['boats', 'harbour']);
    expect(s.repo.upsertValues).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ field: 'count', values: [{ value: 3 }] }),
    );
    expectAssetTouched(s);
    expect(s.events.record).toHaveBeenCalledTimes(1);
    expectEvent(s.events, EM, {
      realm: 'metadata',
      operation: 'update',
      eventType: 'assets',
      objectId: 'a1',
    });
  });

  it('put: an unknown or mistyped field is a 400 before the asset is read; field names the rule refuses are not looked up', async () => {
    const s = setup();
    await expect(
      s.service
        .put(auth, 'assets', 'a1', { metadata_values: { 'x y': vals('a'), count: vals('three') } })
        .catch(wire),
    ).resolves.toEqual(
      wire(
        MetadataErrors.INVALID({
          'metadata_values.x y': 'is not a registered field',
          'metadata_values.count': 'each value must be a number (field_type integer)',
        }),
      ),
    );
    expect(s.fields.definitions).toHaveBeenCalledWith(EM, 'd1', ['count'], true);
    expect(s.repo.asset).not.toHaveBeenCalled();
    expect(s.repo.upsertValues).not.toHaveBeenCalled();
  });

  it('put: a second value appended to a single-valued field is a 400 and nothing is written or told', async () => {
    const s = setup({ present: [row('count', [1])] });
    await expect(
      s.service
        .put(auth, 'assets', 'a1', { mode: 'append', metadata_values: { count: vals(2) } })
        .catch(wire),
    ).resolves.toEqual(
      wire(MetadataErrors.INVALID({ 'metadata_values.count': 'takes one value (the field is not multi)' })),
    );
    expect(s.repo.upsertValues).not.toHaveBeenCalled();
    expect(s.repo.touchAsset).not.toHaveBeenCalled();
    expect(s.events.record).not.toHaveBeenCalled();
  });

  it('put: an emptied field is cleared; naming no field changes nothing and tells nobody', async () => {
    const s = setup();
    await s.service.put(auth, 'assets', 'a1', { metadata_values: { tags: { field_values: [] } } });
    expect(s.repo.deleteValues).toHaveBeenCalledWith(EM, 'v1', 'tags');
    const quiet = setup();
    await quiet.service.put(auth, 'assets', 'a1', { metadata_values: {} });
    expect(quiet.repo.touchAsset).not.toHaveBeenCalled();
    expect(quiet.events.record).not.toHaveBeenCalled();
  });

  it('a deleted asset, another domain’s or one without a version is not found', async () => {
    for (const stored of [
      { id: 'a1', current_version_id: 'v1', date_deleted: NOW },
      null,
      { id: 'a1', current_version_id: null, date_deleted: null },
    ]) {
      const s = setup({ stored });
      await expect(s.service.get(auth, 'assets', 'a1').catch(wire)).resolves.toEqual(
        wire(AssetsErrors.NOT_FOUND()),
      );
      await expect(
        s.service.put(auth, 'assets', 'a1', { metadata_values: { tags: vals('x') } }).catch(wire),
      ).resolves.toEqual(wire(AssetsErrors.NOT_FOUND()));
      expect(s.repo.upsertValues).not.toHaveBeenCalled();
    }
  });

  describe('collections', () => {
    it('read: the collection service judges readability first; no version', async () => {
      const s = setup();
      const out = await s.service.get(auth, 'collections', 'c1');
      expect(s.collections.view).toHaveBeenCalledWith(MANAGER, auth, 'c1');
      expect(out).toMatchObject({
        object_type: 'collections',
        object_id: 'c1',
        version_id: null,
        metadata_values: { tags: { field_values: [{ value: 'boats' }] } },
      });
    });

    it('write: held, appended, marked modified and told as a collections event; no asset is touched', async () => {
      const s = setup();
      await s.service.put(auth, 'collections', 'c1', {
        metadata_values: { tags: { mode: 'append', ...vals('harbour') } },
      });
      expect(s.collections.view).toHaveBeenCalledWith(EM, auth, 'c1');
      expect(s.repo.collection).toHaveBeenCalledWith(EM, 'c1', true);
      expect(s.repo.upsertCollectionValues).toHaveBeenCalledWith(EM, {
        id: 'c1',
        field: 'tags',
        values: [{ value: 'boats' }, { value: 'harbour' }],
        at: NOW,
      });
      expect(s.repo.touchCollection).toHaveBeenCalledWith(EM, 'c1', NOW);
      expect(s.collections.refreshSearchDocument).toHaveBeenCalledWith(EM, 'c1');
      expect(s.repo.touchAsset).not.toHaveBeenCalled();
      expect(s.assets.refreshSearchDocument).not.toHaveBeenCalled();
      expectEvent(s.events, EM, {
        eventType: 'collections',
        data: expect.objectContaining({ object_type: 'collections', version_id: null }),
      });
    });

    it('a collection the caller may not read is not found, and nothing is written', async () => {
      const s = setup();
      s.collections.view.mockRejectedValue(CollectionsErrors.NOT_FOUND());
      await expect(
        s.service.put(auth, 'collections', 'c1', { metadata_values: { tags: vals('x') } }).catch(wire),
      ).resolves.toEqual(wire(CollectionsErrors.NOT_FOUND()));
      expect(s.repo.upsertCollectionValues).not.toHaveBeenCalled();
      expect(s.collections.refreshSearchDocument).not.toHaveBeenCalled();
      expect(s.events.record).not.toHaveBeenCalled();
    });
  });
});
