import { jest } from '@jest/globals';
import type { BaseConfig } from '../config/config.js';
import type { SigningKeyEntity } from '../model/signing-key.entity.js';
import type { KeysRepository, NewSigningKey } from './keys.repository.js';
import { SigningKeysService } from './signing-keys.service.js';
import { repoWithTransaction } from '../../../test/utils/fakes.js';

const TX = { tx: true };
const CONFIG = { auth: { keyEncryptionSecret: 'k'.repeat(32) } } as BaseConfig;

/** A table of keys in memory: inserts become rows (newest first), the rotation and retirement change them. */
function setup() {
  let rows: SigningKeyEntity[] = [];
  let clock = 0;
  const repo = repoWithTransaction(TX, {
    all: jest.fn(async () => [...rows].sort((a, b) => b.date_created.getTime() - a.date_created.getTime())),
    insert: jest.fn(async (key: NewSigningKey, _em?: unknown) => {
      rows.push({ ...key, date_created: new Date(++clock), date_retired: null } as SigningKeyEntity);
    }),
    demoteActive: jest.fn(async (_em: unknown) => {
      rows = rows.map((r) => (r.status === 'ACTIVE' ? { ...r, status: 'PREVIOUS' } : r));
    }),
    retire: jest.fn(async (kid: string, _at: Date) => {
      const r = rows.find((k) => k.id === kid && k.status === 'PREVIOUS');
      if (r) r.status = 'RETIRED';
      return !!r;
    }),
  });
  const service = new SigningKeysService(repo as unknown as KeysRepository, CONFIG);
  return { service, repo, rows: () => rows };
}

describe('SigningKeysService', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(async () => {
    s = setup();
    await s.service.init();
  });
  afterEach(() => s.service.onModuleDestroy());

  it('on an empty table creates the first key, ACTIVE, its private half encrypted', async () => {
    expect(s.repo.insert).toHaveBeenCalledTimes(1);
    const [key, em] = s.repo.insert.mock.calls[0];
    expect(em).toBeUndefined();
    expect(key).toMatchObject({ algorithm: 'ES256', status: 'ACTIVE' });
    expect(key.public_key_pem).toContain('BEGIN PUBLIC KEY');
    expect(key.private_key_encrypted).not.toContain('PRIVATE KEY');
    expect(s.service.currentKid()).toBe(key.id);
  });

  it('a rotation demotes the ACTIVE key and inserts the new one in the same transaction; both verify', async () => {
    const before = s.service.currentKid()!;
    const kid = await s.service.rotate();
    expect(s.repo.demoteActive).toHaveBeenCalledWith(TX);
    expect(s.repo.insert).toHaveBeenLastCalledWith(
      expect.objectContaining({ id: kid, status: 'ACTIVE' }),
      TX,
    );
    expect(s.repo.demoteActive.mock.invocationCallOrder[0]).toBeLessThan(
      s.repo.insert.mock.invocationCallOrder[1],
    );
    expect(s.service.currentKid()).toBe(kid);
    expect(await s.service.verificationKey(before)).not.toBeNull();
    expect((await s.service.jwks()).keys.map((k) => k.kid).sort()).toEqual([before, kid].sort());
  });

  it('retiring a previous key stops it verifying and leaves the JWKS; the active key cannot be retired', async () => {
    const before = s.service.currentKid()!;
    const kid = await s.service.rotate();
    expect(await s.service.retire(kid)).toBe(false);
    expect(await s.service.retire(before)).toBe(true);
    expect(await s.service.verificationKey(before)).toBeNull();
    expect((await s.service.jwks()).keys.map((k) => k.kid)).toEqual([kid]);
  });

  it('a kid that cannot be ours never reaches the database; an unknown one is re-read once, then remembered', async () => {
    const reads = s.repo.all.mock.calls.length;
    expect(await s.service.verificationKey('not-a-uuid')).toBeNull();
    expect(s.repo.all).toHaveBeenCalledTimes(reads);
    const unknown = '0d9f3b7c-1e2a-4c5d-8e9f-a0b1c2d3e4f5';
    expect(await s.service.verificationKey(unknown)).toBeNull();
    expect(await s.service.verificationKey(unknown)).toBeNull();
    expect(s.repo.all).toHaveBeenCalledTimes(reads + 1);
  });

  it('signs an ES256 JWT with the current kid in its header', async () => {
    const jwt = await s.service.sign({ sub: 'u1' }, new Date(Date.now() + 60_000));
    const header = JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()) as Record<
      string,
      string
    >;
    expect(header).toEqual({ alg: 'ES256', kid: s.service.currentKid(), typ: 'JWT' });
  });
});
