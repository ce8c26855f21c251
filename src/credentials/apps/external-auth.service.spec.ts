import { jest } from '@jest/globals';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { AccessService } from '../../base/common/auth/access.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AppInstanceEntity } from '../../base/model/app-instance.entity.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import type { ExternalAuthEntity } from '../../base/model/external-auth.entity.js';
import type { CredentialMintService } from '../mint/credential-mint.service.js';
import type { TokensService } from '../tokens/tokens.service.js';
import type { AppsRepository } from './apps.repository.js';
import type { ExternalAuthRequestDto } from './dto/external-auth.dto.js';
import { ExternalAuthService } from './external-auth.service.js';
import { authContext, fixedClock, repoWithTransaction, uniqueViolation } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';

const SECRET = 'a-secret-of-enough-length-0123456789';

const app = (over: Partial<AppEntity> = {}): AppEntity =>
  ({ id: 'a1', system_domain_id: 'd1', type: 'PAT', name: 'Desktop client', ...over }) as AppEntity;

const instance = (over: Partial<AppInstanceEntity> = {}): AppInstanceEntity =>
  ({
    id: 'i1',
    app_id: 'a1',
    user_id: 'u1',
    system_domain_id: 'd1',
    rights_cap: ['@admin', 'can_read_apps'],
    token_id: null,
    date_created: new Date(NOW.getTime() - 60_000),
    ...over,
  }) as AppInstanceEntity;

const pending = (over: Partial<ExternalAuthEntity> = {}): ExternalAuthEntity =>
  ({
    id: 'x1',
    app_id: 'a1',
    user_id: 'u1',
    system_domain_id: 'd1',
    rights_cap: [],
    redirect_info: null,
    token_id: null,
    date_created: NOW,
    ...over,
  }) as ExternalAuthEntity;

const caller = (over: Partial<AuthContext> = {}) => authContext({ isAdmin: false, ...over });

function setup(
  opts: {
    app?: AppEntity | null;
    instance?: AppInstanceEntity | null;
    pending?: ExternalAuthEntity | null;
  } = {},
) {
  const theApp = opts.app === undefined ? app() : opts.app;
  const repo = repoWithTransaction(EM, {
    byId: jest.fn(async () => theApp),
    byName: jest.fn(async () => theApp),
    insertExternalAuth: jest.fn(async (_v: object) => undefined),
    pendingExternalAuth: jest.fn(async () => (opts.pending === undefined ? pending() : opts.pending)),
    claimExternalAuth: jest.fn(async () => true),
    insertInstance: jest.fn(async (v: Partial<AppInstanceEntity>) => instance(v)),
    pendingInstance: jest.fn(async () => (opts.instance === undefined ? instance() : opts.instance)),
    claimInstance: jest.fn(async () => true),
    instanceInDomain: jest.fn(async () => (opts.instance === undefined ? instance() : opts.instance)),
    removeInstance: jest.fn(async () => undefined),
  });
  const access = { require: jest.fn(async () => undefined) };
  const tokens = { revoke: jest.fn(async () => undefined) };
  const mint = {
    approvalCap: jest.fn(() => ['can_read_apps']),
    externalAuth: jest.fn(async () => ({ token: 'jwt', record: { id: 't1' } })),
  };
  const service = new ExternalAuthService(
    repo as unknown as AppsRepository,
    access as unknown as AccessService,
    tokens as unknown as TokensService,
    mint as unknown as CredentialMintService,
    fixedClock(NOW),
  );
  return { service, repo, access, tokens, mint };
}

const err = (status: number, code: string) => expect.objectContaining({ status, code });
const approval = (over: Partial<ExternalAuthRequestDto> = {}) =>
  ({ secret: SECRET, app_id: 'a1', ...over }) as ExternalAuthRequestDto;

describe('ExternalAuthService.approve', () => {
  it('stores the secret’s hash with the mint’s ceiling and a ten-minute window; the app through the access check', async () => {
    const s = setup();
    const out = await s.service.approve(
      caller(),
      approval({ redirect_info: { url: 'https://d.example/done' } }),
    );
    expect(s.access.require).toHaveBeenCalledWith(expect.anything(), 'app', ['a1']);
    expect(s.repo.insertExternalAuth).toHaveBeenCalledWith({
      secret_hash: sha256Hex(SECRET),
      system_domain_id: 'd1',
      app_id: 'a1',
      user_id: 'u1',
      redirect_info: { url: 'https://d.example/done', headers: null },
      rights_cap: ['can_read_apps'],
      expires: new Date(NOW.getTime() + 10 * 60_000),
    });
    expect(out).toEqual({ app_id: 'a1', redirect_info: { url: 'https://d.example/done', headers: null } });
  });

  it('finds the app by name in the caller’s domain when app_id is absent', async () => {
    const s = setup();
    await s.service.approve(caller(), approval({ app_id: undefined, app_name: 'Desktop client' }));
    expect(s.repo.byName).toHaveBeenCalledWith('d1', 'Desktop client');
    expect(s.access.require).not.toHaveBeenCalled();
  });

  it('neither app_id nor app_name → 400; an unknown app → 404; nothing stored', async () => {
    let s = setup();
    await expect(s.service.approve(caller(), approval({ app_id: undefined }))).rejects.toEqual(
      expect.objectContaining({ status: 400, errors: { app_id: 'app_id or app_name is required' } }),
    );
    s = setup({ app: null });
    await expect(
      s.service.approve(caller(), approval({ app_id: undefined, app_name: 'nope' })),
    ).rejects.toEqual(err(404, 'apps.NOT_FOUND'));
    await expect(s.service.approve(caller(), approval())).rejects.toEqual(err(404, 'apps.NOT_FOUND'));
    expect(s.repo.insertExternalAuth).not.toHaveBeenCalled();
  });

  it('an OAuth app → 400 (it has the authorization code flow), at approval of a secret or an instance', async () => {
    const s = setup({ app: app({ type: 'OAUTH' }) });
    const refused = expect.objectContaining({
      status: 400,
      errors: { app_id: 'OAuth apps use the authorization code flow' },
    });
    await expect(s.service.approve(caller(), approval())).rejects.toEqual(refused);
    await expect(s.service.approveInstance(caller(), { id: 'i1', app_id: 'a1' } as never)).rejects.toEqual(
      refused,
    );
    expect(s.mint.approvalCap).not.toHaveBeenCalled();
    expect(s.repo.insertExternalAuth).not.toHaveBeenCalled();
    expect(s.repo.insertInstance).not.toHaveBeenCalled();
  });

  it('a secret approved before → 409; any other failure passes through', async () => {
    const s = setup();
    s.repo.insertExternalAuth.mockRejectedValueOnce(uniqueViolation());
    await expect(s.service.approve(caller(), approval())).rejects.toEqual(err(409, 'apps.SECRET_USED'));
    s.repo.insertExternalAuth.mockRejectedValueOnce(new Error('down'));
    await expect(s.service.approve(caller(), approval())).rejects.toThrow('down');
  });
});

describe('ExternalAuthService.collect', () => {
  it('mints the token in the transaction that claims the approval, by the secret’s hash', async () => {
    const s = setup({ pending: pending({ redirect_info: { url: 'u', headers: null } }) });
    const out = await s.service.collect(SECRET);
    expect(s.repo.pendingExternalAuth).toHaveBeenCalledWith(EM, sha256Hex(SECRET), NOW);
    expect(s.mint.externalAuth).toHaveBeenCalledWith(EM, expect.objectContaining({ id: 'x1' }), undefined);
    expect(s.repo.claimExternalAuth).toHaveBeenCalledWith(EM, 'x1', 't1');
    expect(out).toMatchObject({ app_id: 'a1', token: 'jwt', redirect_info: { url: 'u', headers: null } });
  });

  it('nothing pending → 404; a racer that claimed it first → 404 (the minted token rolls back with the transaction)', async () => {
    let s = setup({ pending: null });
    await expect(s.service.collect(SECRET)).rejects.toEqual(err(404, 'apps.PENDING_AUTHORIZATION_NOT_FOUND'));
    expect(s.mint.externalAuth).not.toHaveBeenCalled();
    s = setup();
    s.repo.claimExternalAuth.mockResolvedValueOnce(false);
    await expect(s.service.collect(SECRET)).rejects.toEqual(err(404, 'apps.PENDING_AUTHORIZATION_NOT_FOUND'));
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
  });
});

describe('ExternalAuthService approved instances', () => {
  it('approveInstance stores the approver, domain and ceiling; an id approved before → 409', async () => {
    const s = setup();
    const out = await s.service.approveInstance(caller(), { id: 'i9', app_id: 'a1' } as never);
    expect(s.repo.insertInstance).toHaveBeenCalledWith({
      id: 'i9',
      app_id: 'a1',
      user_id: 'u1',
      system_domain_id: 'd1',
      rights_cap: ['can_read_apps'],
    });
    expect(out).toMatchObject({ id: 'i9', app_id: 'a1' });
    s.repo.insertInstance.mockRejectedValueOnce(uniqueViolation());
    await expect(s.service.approveInstance(caller(), { id: 'i9', app_id: 'a1' } as never)).rejects.toEqual(
      err(409, 'apps.INSTANCE_APPROVED'),
    );
  });

  it('collectInstance looks for the caller’s own approval in the caller’s domain', async () => {
    const s = setup();
    await s.service.collectInstance(caller(), 'i1');
    expect(s.repo.pendingInstance).toHaveBeenCalledWith(EM, { id: 'i1', userId: 'u1', systemDomainId: 'd1' });
    expect(s.repo.claimInstance).toHaveBeenCalledWith(EM, 'i1', 't1');
  });

  it('the token’s ceiling is the approval’s cut to what the collecting credential and the app allow now', async () => {
    const s = setup({ instance: instance({ rights_cap: ['@admin', 'can_read_apps'] }) });
    s.mint.approvalCap.mockReturnValueOnce(['can_read_apps', 'can_write_apps']);
    await s.service.collectInstance(caller(), 'i1');
    expect(s.mint.externalAuth).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ rights_cap: ['can_read_apps'] }),
      expect.objectContaining({ actorUserId: 'u1' }),
    );
  });

  it('an approval older than ten minutes → 404, nothing minted', async () => {
    const s = setup({ instance: instance({ date_created: new Date(NOW.getTime() - 10 * 60_000 - 1) }) });
    await expect(s.service.collectInstance(caller(), 'i1')).rejects.toEqual(
      err(404, 'apps.PENDING_APPROVAL_NOT_FOUND'),
    );
    expect(s.mint.externalAuth).not.toHaveBeenCalled();
    const edge = setup({ instance: instance({ date_created: new Date(NOW.getTime() - 10 * 60_000) }) });
    await edge.service.collectInstance(caller(), 'i1');
    expect(edge.mint.externalAuth).toHaveBeenCalled();
  });

  it('no pending approval, its app gone, or a lost race → 404', async () => {
    let s = setup({ instance: null });
    await expect(s.service.collectInstance(caller(), 'i1')).rejects.toEqual(
      err(404, 'apps.PENDING_APPROVAL_NOT_FOUND'),
    );
    s = setup({ app: null });
    await expect(s.service.collectInstance(caller(), 'i1')).rejects.toEqual(
      err(404, 'apps.PENDING_APPROVAL_NOT_FOUND'),
    );
    expect(s.mint.externalAuth).not.toHaveBeenCalled();
    s = setup();
    s.repo.claimInstance.mockResolvedValueOnce(false);
    await expect(s.service.collectInstance(caller(), 'i1')).rejects.toEqual(
      err(404, 'apps.PENDING_APPROVAL_NOT_FOUND'),
    );
  });

  it('removeInstance: the approver or an administrator revokes its token and deletes it in one transaction', async () => {
    for (const who of [caller(), caller({ userId: 'admin', isAdmin: true })]) {
      const s = setup({ instance: instance({ token_id: 't1' }) });
      await s.service.removeInstance(who, 'i1');
      expect(s.repo.instanceInDomain).toHaveBeenCalledWith('d1', 'i1');
      expect(s.tokens.revoke).toHaveBeenCalledWith('t1', { em: EM, requestId: 'r1' });
      expect(s.repo.removeInstance).toHaveBeenCalledWith(EM, 'i1');
    }
    const uncollected = setup();
    await uncollected.service.removeInstance(caller(), 'i1');
    expect(uncollected.tokens.revoke).not.toHaveBeenCalled();
    expect(uncollected.repo.removeInstance).toHaveBeenCalledWith(EM, 'i1');
  });

  it('removeInstance: to anyone else, or for an unknown id, the same 404; nothing changes', async () => {
    let s = setup({ instance: instance({ token_id: 't1' }) });
    await expect(s.service.removeInstance(caller({ userId: 'stranger' }), 'i1')).rejects.toEqual(
      err(404, 'apps.INSTANCE_NOT_FOUND'),
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
    s = setup({ instance: null });
    await expect(s.service.removeInstance(caller(), 'i1')).rejects.toEqual(
      err(404, 'apps.INSTANCE_NOT_FOUND'),
    );
    expect(s.tokens.revoke).not.toHaveBeenCalled();
  });
});
