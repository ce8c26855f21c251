import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { ConfigOf } from '../../base/config/namespace.js';
import type { StorageEntity } from '../../base/model/storage.entity.js';
import type { CreateStorageDto } from './dto/storage.dto.js';
import type { FILES_CONFIG } from './files-config.js';
import { StoragesService } from './storages.service.js';
import { adminContext, repoWithTransaction } from '../../../test/utils/fakes.js';
import { MANAGER } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { storageRow } from '../../../test/utils/fakes/files.js';

const TX = { tx: true };

/** The domain's own S3 storage 'own', named Ours. */
const storage = (over: Partial<StorageEntity> = {}) =>
  storageRow({ id: 'own', system_domain_id: 'd1', name: 'Ours', method: 'S3', ...over });

const BUILTIN = storage({
  id: 'builtin',
  system_domain_id: null,
  name: 'Files',
  method: 'FILE',
  is_default: true,
});

const caller = (over: Partial<AuthContext> = {}) => adminContext(over);

function setup(o: { rows?: StorageEntity[]; defaults?: string[]; method?: 'FILE' | 'S3' } = {}) {
  const rows = new Map((o.rows ?? [BUILTIN, storage()]).map((r) => [r.id, r]));
  const repo = repoWithTransaction(TX, {
    manager: MANAGER,
    ensureBuiltinStorage: jest.fn(async () => true),
    defaultStorageIds: jest.fn(async () => o.defaults ?? ['builtin']),
    visibleQuery: jest.fn(),
    defaultOf: jest.fn(async (): Promise<StorageEntity | undefined> => undefined),
    byId: jest.fn(async (_em: unknown, id: string) => rows.get(id) ?? null),
    insert: jest.fn(async (_em: unknown, values: Partial<StorageEntity>) => {
      rows.set('new', storage({ ...values, id: 'new' }));
      return 'new';
    }),
    update: jest.fn(async () => undefined),
    clearDefault: jest.fn(async () => undefined),
  });
  const config = {
    method: o.method ?? 'FILE',
    s3: { bucket: 'deploy-bucket', prefix: 'p/' },
    allowedBuckets: ['shared-media'],
  } as unknown as ConfigOf<typeof FILES_CONFIG>;
  const service = construct(StoragesService, repo, config);
  return { service, repo };
}

const create = (over: Partial<CreateStorageDto> = {}): CreateStorageDto => ({
  name: 'Ours',
  method: 'S3',
  purpose: 'FILES',
  ...over,
});

describe('StoragesService: settings a client may put', () => {
  it.each([
    [
      'a FILE storage with any setting (it would pick a path)',
      { method: 'FILE', settings: { path: '/etc' } },
    ],
    ['an endpoint', { settings: { endpoint: 'http://169.254.169.254' } }],
    ['a secret', { settings: { secret_access_key: 'x' } }],
    ['a bucket climbing out', { settings: { bucket: '../x' } }],
    ['a prefix with odd characters', { settings: { prefix: 'a b' } }],
    ['a bucket that is no string', { settings: { bucket: 7 } }],
    ['a name over 200 characters', { settings: { prefix: 'a'.repeat(201) } }],
  ] as const)('refuses %s: 400, nothing written', async (_name, over) => {
    const { service, repo } = setup();
    await expect(service.create(caller(), create(over as Partial<CreateStorageDto>))).rejects.toMatchObject({
      status: 400,
    });
    expect(repo.insert).not.toHaveBeenCalled();
  });

  it('keeps an S3 storage’s bucket and prefix, and nothing else of the body', async () => {
    const { service, repo } = setup();
    await service.create(caller(), create({ settings: { bucket: 'shared-media', prefix: 'tenant/a_1.b-' } }));
    expect(repo.insert).toHaveBeenCalledWith(TX, {
      system_domain_id: 'd1',
      name: 'Ours',
      method: 'S3',
      purpose: 'FILES',
      status: 'ACTIVE',
      status_message: null,
      settings: { bucket: 'shared-media', prefix: 'tenant/a_1.b-' },
      is_default: false,
    });
  });
});

describe('StoragesService: the bucket rule', () => {
  it('a domain administrator names only a bucket of S3_ALLOWED_BUCKETS: 403 otherwise', async () => {
    const { service, repo } = setup();
    await expect(
      service.create(caller(), create({ settings: { bucket: 'someone-elses' } })),
    ).rejects.toMatchObject({ status: 403, code: 'files.BUCKET_NOT_ALLOWED' });
    await expect(
      service.update(caller(), 'own', { settings: { bucket: 'someone-elses' } }),
    ).rejects.toMatchObject({ status: 403 });
    expect(repo.insert).not.toHaveBeenCalled();
    expect(repo.update).not.toHaveBeenCalled();
  });

  it('a super administrator names any bucket; no bucket at all is the deployment’s', async () => {
    const { service, repo } = setup();
    await service.create(caller({ isSuperAdmin: true }), create({ settings: { bucket: 'anything' } }));
    await service.create(caller(), create({ settings: { prefix: 'x/' } }));
    expect(repo.insert).toHaveBeenCalledTimes(2);
  });
});

describe('StoragesService: who may change a storage', () => {
  it('a domain’s storage is created in the caller’s domain', async () => {
    const { service, repo } = setup();
    await service.create(caller({ systemDomainId: 'd9' }), create({ method: 'FILE' }));
    expect(repo.insert).toHaveBeenCalledWith(TX, expect.objectContaining({ system_domain_id: 'd9' }));
  });

  it('a built-in storage is changed by super administrators only: 403 for a domain administrator', async () => {
    const { service, repo } = setup();
    await expect(service.update(caller(), 'builtin', { name: 'x' })).rejects.toMatchObject({
      status: 403,
      code: 'files.BUILTIN_STORAGE',
    });
    expect(repo.update).not.toHaveBeenCalled();
    await service.update(caller({ isSuperAdmin: true }), 'builtin', { status_message: 'fine' });
    expect(repo.update).toHaveBeenCalledWith(TX, 'builtin', { status_message: 'fine' });
  });

  it('a built-in storage stays the default of its purpose: default false is a 400, true changes nothing', async () => {
    const { service, repo } = setup();
    const su = caller({ isSuperAdmin: true });
    await expect(service.update(su, 'builtin', { default: false })).rejects.toMatchObject({ status: 400 });
    await service.update(su, 'builtin', { default: true });
    expect(repo.clearDefault).not.toHaveBeenCalled();
    expect(repo.update).not.toHaveBeenCalled();
  });

  it('another domain’s storage is a 404 to read and to change', async () => {
    const { service, repo } = setup({ rows: [storage({ id: 'theirs', system_domain_id: 'd2' })] });
    await expect(service.get(caller(), 'theirs')).rejects.toMatchObject({ status: 404 });
    await expect(
      service.update(caller({ isSuperAdmin: true }), 'theirs', { name: 'x' }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(service.get(caller(), 'missing')).rejects.toMatchObject({ status: 404 });
    expect(repo.update).not.toHaveBeenCalled();
  });

  it('the check and the change are one transaction', async () => {
    const { service, repo } = setup();
    await service.update(caller(), 'own', { name: 'Renamed', status: 'INACTIVE' });
    expect(repo.transaction).toHaveBeenCalledTimes(1);
    expect(repo.byId).toHaveBeenCalledWith(TX, 'own');
    expect(repo.update).toHaveBeenCalledWith(TX, 'own', { name: 'Renamed', status: 'INACTIVE' });
  });

  it('settings of an update are checked against the storage’s own method', async () => {
    const { service, repo } = setup({ rows: [storage({ method: 'FILE' })] });
    await expect(
      service.update(caller(), 'own', { settings: { bucket: 'shared-media' } }),
    ).rejects.toMatchObject({ status: 400 });
    expect(repo.update).not.toHaveBeenCalled();
  });
});

describe('StoragesService: the default of a purpose', () => {
  it('a new default first clears the domain’s other default of the purpose, in the same transaction', async () => {
    const { service, repo } = setup();
    await service.create(caller(), create({ method: 'FILE', purpose: 'PROXIES', default: true }));
    expect(repo.clearDefault).toHaveBeenCalledWith(TX, 'd1', 'PROXIES');
    expect(repo.insert).toHaveBeenCalledWith(TX, expect.objectContaining({ is_default: true }));
    expect(repo.clearDefault.mock.invocationCallOrder[0]).toBeLessThan(
      repo.insert.mock.invocationCallOrder[0],
    );
  });

  it('a storage that is not the default clears nothing', async () => {
    const { service, repo } = setup();
    await service.create(caller(), create({ method: 'FILE' }));
    await service.update(caller(), 'own', { default: false });
    expect(repo.clearDefault).not.toHaveBeenCalled();
    expect(repo.update).toHaveBeenCalledWith(TX, 'own', { is_default: false });
  });

  it('made the default by an update, the storage’s purpose is cleared first', async () => {
    const { service, repo } = setup({ rows: [storage({ purpose: 'KEYFRAMES' })] });
    await service.update(caller(), 'own', { default: true });
    expect(repo.clearDefault).toHaveBeenCalledWith(TX, 'd1', 'KEYFRAMES');
    expect(repo.update).toHaveBeenCalledWith(TX, 'own', { is_default: true });
  });

  it('matching answers the domain’s default of the purpose, 404 when there is none', async () => {
    const { service, repo } = setup();
    await expect(service.matching(caller(), 'EXPORTS')).rejects.toMatchObject({
      status: 404,
      code: 'files.NO_MATCHING_STORAGE',
    });
    expect(repo.defaultOf).toHaveBeenCalledWith(MANAGER, 'EXPORTS', 'd1');
    repo.defaultOf.mockResolvedValueOnce(BUILTIN);
    await expect(service.matching(caller(), 'FILES')).resolves.toBe(BUILTIN);
  });

  it('the view says default for the storage each purpose resolves to, and builtin for the shared ones', async () => {
    const { service } = setup({ defaults: ['own'] });
    expect(await service.get(caller(), 'own')).toMatchObject({ default: true, builtin: false });
    expect(await service.get(caller(), 'builtin')).toMatchObject({ default: false, builtin: true });
  });
});

describe('StoragesService: the built-in storages', () => {
  it('ensures one per purpose at start, with the deployment’s method and S3 bucket', async () => {
    const { service, repo } = setup({ method: 'S3' });
    await service.onApplicationBootstrap();
    expect(repo.ensureBuiltinStorage.mock.calls).toEqual([
      ['Files', 'S3', 'FILES', { bucket: 'deploy-bucket', prefix: 'p/' }],
      ['Proxies', 'S3', 'PROXIES', { bucket: 'deploy-bucket', prefix: 'p/' }],
      ['Keyframes', 'S3', 'KEYFRAMES', { bucket: 'deploy-bucket', prefix: 'p/' }],
    ]);
    const file = setup({ method: 'FILE' });
    await file.service.onApplicationBootstrap();
    expect(file.repo.ensureBuiltinStorage).toHaveBeenCalledWith('Files', 'FILE', 'FILES', {});
  });
});
