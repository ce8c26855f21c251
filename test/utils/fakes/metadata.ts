/** Metadata fields, values and the asset half of a metadata repository, as the metadata specs fake them. */
import { jest } from '@jest/globals';
import type { AssetVersionEntity } from '../../../src/base/model/asset.entity.js';
import type { MetadataFieldEntity, MetadataValueEntity } from '../../../src/base/model/metadata.entity.js';
import { repoWithTransaction } from '../fakes.js';
import { EM, MANAGER, NOW } from './fixtures.js';

/** When the asset's current version v1 was made. */
export const T0 = new Date('2026-04-01T10:00:00Z');
/** When the stored values were last written. */
export const T1 = new Date('2026-04-02T10:00:00Z');

/** A registered field: a string taking several values, neither read-only nor required; `over` on top. */
export const fieldRow = (name: string, over: Partial<MetadataFieldEntity> = {}) =>
  ({
    name,
    field_type: 'string',
    multi: true,
    read_only: false,
    required: false,
    min_value: null,
    max_value: null,
    options: [],
    ...over,
  }) as MetadataFieldEntity;

/** A field's stored values on version v1, written at `at`. */
export const valueRow = (field_name: string, values: unknown[], at = T1) =>
  ({
    version_id: 'v1',
    field_name,
    field_values: values.map((value) => ({ value })),
    date_created: at,
    date_modified: at,
  }) as MetadataValueEntity;

/** A field's values as a request body names them. */
export const fieldValues = (...vs: unknown[]) => ({ field_values: vs.map((value) => ({ value })) });

/**
 * A metadata repository fake over one asset (`stored`, whose current version is v1 made at T0) and the values
 * `present` on it, with a transaction handing over EM; `more` adds or replaces methods.
 */
export function metadataRepo<M extends object>(
  stored: unknown,
  present: MetadataValueEntity[],
  more = {} as M,
) {
  return repoWithTransaction(EM, {
    manager: MANAGER,
    asset: jest.fn(async (..._a: unknown[]) => stored),
    versionOrFail: jest.fn(
      async (..._a: unknown[]) => ({ id: 'v1', date_created: T0 }) as AssetVersionEntity,
    ),
    values: jest.fn(async (_em: unknown, _v: string, names: string[]) =>
      present.filter((p) => names.includes(p.field_name)),
    ),
    allValues: jest.fn(async (..._a: unknown[]) => present),
    upsertValues: jest.fn(async (..._a: unknown[]) => undefined),
    deleteValues: jest.fn(async (..._a: unknown[]) => undefined),
    touchAsset: jest.fn(async (..._a: unknown[]) => undefined),
    ...more,
  });
}

/** That a change of asset a1's values ended in the transaction: a1 modified at NOW, its search document rebuilt. */
export function expectAssetTouched(s: {
  repo: { touchAsset: unknown };
  assets: { refreshSearchDocument: unknown };
}) {
  expect(s.repo.touchAsset).toHaveBeenCalledWith(EM, 'a1', NOW);
  expect(s.assets.refreshSearchDocument).toHaveBeenCalledWith(EM, 'a1');
}

/** That the field's values were written on asset a1's current version v1, in the transaction, at NOW. */
export const expectValuesWritten = (repo: { upsertValues: unknown }, field: string, values: unknown[]) =>
  expect(repo.upsertValues).toHaveBeenCalledWith(EM, {
    versionId: 'v1',
    field,
    assetId: 'a1',
    values: values.map((value) => ({ value })),
    at: NOW,
  });
