import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { Role } from '../../base/common/auth/roles.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import { AppsService } from './apps.service.js';
import type { CreateAppDto } from './dto/app.dto.js';
import {
  adminContext,
  fixedClock,
  recordingAudit,
  recordingEvents,
  repoWithTransaction,
} from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err, expectAudited, expectEvent, expectUncalled } from '../../../test/utils/fakes/expect.js';

const app = (over: Partial<AppEntity> = {}): AppEntity =>
  ({
    id: 'a1',
    system_domain_id: 'd1',
    name: 'App',
    description: null,
    url: null,
    type: 'PAT',
    oauth_client_type: null,
    default_user_id: null,
    allowed_scopes: [],
    redirect_uris: [],
    allowed_origins: [],
    post_logout_redirect_uris: [],
    client_secret_hash: null,
    acting_rights_cap: null,
    is_builtin: false,
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as AppEntity;

const caller = (over: Partial<AuthContext> = {}, roles: Role[] = []) =>
  adminContext({ kind: 'LOGIN', rightsCap: null, roles, ...over });

/** A confidential OAuth client acting as nobody, with redirect URIs (a server-side app). */
const confidential = (over: Partial<AppEntity> = {}) =>
  app({
    type: 'OAUTH',
    oauth_client_type: 'confidential',
    redirect_uris: ['https://c.example/cb'],
    client_secret_hash: 'old-hash',
    ...over,
  });

function setup(
  stored: AppEntity | null = app(),
  { actingRights = null as object | null, beyond = [] as string[] } = {},
) {
  const repo = repoWithTransaction(EM, {
    findInDomain: jest.fn(async (domain: string, id: string) =>
      stored && stored.id === id && stored.system_domain_id === domain ? stored : null,
    ),
    create: jest.fn(async (_em: unknown, values: Partial<AppEntity>) =>
      app({ ...values, id: 'a-new' } as Partial<AppEntity>),
    ),
    save: jest.fn(async (_em: unknown, a: AppEntity) => a),
    remove: jest.fn(async () => undefined),
  });
  const rights = {
    rightsOf: jest.fn(async () => actingRights),
    beyondCaller: jest.fn(async () => beyond),
    requireWithinCaller: jest.fn(async () => ['can_read_apps']),
  };
  const mint = {
    clientSecret: jest.fn(async () => ({ secret: 'new-secret', hash: 'new-hash' })),
    pat: jest.fn(async () => ({ token: 'jwt', record: { id: 't1' } })),
    currentUser: jest.fn(async () => ({ token: 'jwt', record: { id: 't1' } })),
  };
  const tokenQueries = { view: jest.fn(async (r: { id: string }) => ({ id: r.id })) };
  const clients = { changed: jest.fn(async () => undefined) };
  const events = recordingEvents();
  const audit = recordingAudit();
  const service = construct(
    AppsService,
    repo,
    {} as BaseConfig,
    rights,
    mint,
    tokenQueries,
    clients,
    fixedClock(NOW),
    events,
    audit,
  );
  return { service, repo, rights, mint, tokenQueries, clients, events, audit };
}

const nothingWritten = (s: ReturnType<typeof setup>) => {
  expectUncalled(s.repo, 'save', 'create', 'remove');
  expectUncalled(s.events, 'record');
};

describe('AppsService.create', () => {
  const body = (over: Partial<CreateAppDto> = {}) => ({ name: 'New', ...over }) as CreateAppDto;

  it('a PAT app: no secret, the name trimmed, the event and the audit record in the transaction', async () => {
    const s = setup(null);
    const out = await s.service.create(caller(), body({ name: '  Svc  ' }));
    expect(s.repo.create).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({
        type: 'PAT',
        name: 'Svc',
        system_domain_id: 'd1',
        client_secret_hash: null,
        acting_rights_cap: null,
        created_by_user_id: 'u1',
      }),
    );
    expect(s.mint.clientSecret).not.toHaveBeenCalled();
    expect(out).not.toHaveProperty('client_secret');
    expectAudited(s.audit, EM, 'app.created', { type: 'app', id: 'a-new' }, { type: 'PAT' });
    expectEvent(s.events, EM, { operation: 'create', eventType: 'apps' });
  });

  it('a confidential client gets a secret from the mint: its hash stored, the secret answered once', async () => {
    const s = setup(null);
    const out = await s.service.create(
      caller(),
      body({ type: 'OAUTH', oauth_client_type: 'confidential', redirect_uris: ['https://c.example/cb'] }),
    );
    expect(s.mint.clientSecret).toHaveBeenCalledWith(expect.anything(), {
      default_user_id: null,
      acting_rights_cap: null,
    });
    expect(s.repo.create).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ client_secret_hash: 'new-hash' }),
    );
    expect(out.client_secret).toBe('new-secret');
  });

  it('an acting user records a ceiling, which must be within the caller (ActingRightsService)', async () => {
    const s = setup(null);
    await s.service.create(caller(), body({ default_user_id: 'u2' }));
    expect(s.rights.requireWithinCaller).toHaveBeenCalledWith(
      expect.anything(),
      'u2',
      'make an app act as this user',
    );
    expect(s.repo.create).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ acting_rights_cap: ['can_read_apps'] }),
    );
  });

  it.each([
    ['a blank name', { name: '   ' }, { name: 'must not be blank' }],
    ['a non-http url', { url: 'ftp://x.example' }, { url: 'must be an http(s) URL' }],
  ])('refuses %s (400 naming the field), writing nothing', async (_n, over, errors) => {
    const s = setup(null);
    await expect(s.service.create(caller(), body(over))).rejects.toEqual(
      expect.objectContaining({ status: 400, code: 'apps.INVALID', errors }),
    );
    nothingWritten(s);
  });

  it('post-logout redirect URIs: normalised, stored, answered; unsafe ones and a PAT app’s refused', async () => {
    const oauth = { type: 'OAUTH', oauth_client_type: 'public', redirect_uris: ['https://p.example/cb'] };
    const create = (s: ReturnType<typeof setup>, uris: string[], o: object = oauth) =>
      s.service.create(caller(), body({ ...o, post_logout_redirect_uris: uris }));
    const s = setup(null);
    const out = await create(s, ['HTTPS://P.Example:443/bye', '', 'https://p.example']);
    const stored = ['https://p.example/bye', 'https://p.example/'];
    expect(s.repo.create.mock.calls[0][1]).toMatchObject({ post_logout_redirect_uris: stored });
    expect(out.post_logout_redirect_uris).toEqual(stored);
    const refused = setup(null);
    const invalid = (message: unknown) =>
      expect.objectContaining({ status: 400, errors: { post_logout_redirect_uris: message } });
    for (const uri of ['https://p.example/bye#', 'javascript:alert(1)', 'https://p.example@evil.example/']) {
      await expect(create(refused, [uri])).rejects.toEqual(invalid(expect.any(String)));
    }
    const pat = create(refused, ['https://p.example/bye'], { type: 'PAT' });
    await expect(pat).rejects.toEqual(invalid('applies to OAuth apps only'));
    nothingWritten(refused);
  });

  it('a url is stored in its normal form; blank means none', async () => {
    const s = setup(null);
    await s.service.create(caller(), body({ url: 'https://svc.example.com' }));
    expect(s.repo.create).toHaveBeenLastCalledWith(
      EM,
      expect.objectContaining({ url: 'https://svc.example.com/' }),
    );
    await s.service.create(caller(), body({ url: '  ' }));
    expect(s.repo.create).toHaveBeenLastCalledWith(EM, expect.objectContaining({ url: null }));
  });
});

describe('AppsService.update', () => {
  it('changes the given fields and never the type', async () => {
    const s = setup();
    const out = await s.service.update(caller(), 'a1', {
      type: 'OAUTH',
      description: 'described',
      url: 'https://svc.example.com',
    } as never);
    expect(out).toMatchObject({
      type: 'PAT',
      oauth_client_type: null,
      description: 'described',
      url: 'https://svc.example.com/',
      name: 'App',
    });
    expect(s.repo.save).toHaveBeenCalledWith(EM, expect.objectContaining({ type: 'PAT' }));
    expect(s.clients.changed).toHaveBeenCalledWith('a1');
  });

  it('a confidential client changed otherwise keeps its secret: none minted, none answered', async () => {
    const s = setup(confidential());
    const out = await s.service.update(caller(), 'a1', { redirect_uris: ['https://c.example/cb2', ''] });
    expect(out.redirect_uris).toEqual(['https://c.example/cb2']);
    expect(out).not.toHaveProperty('client_secret');
    expect(s.mint.clientSecret).not.toHaveBeenCalled();
    expect(s.repo.save).toHaveBeenCalledWith(EM, expect.objectContaining({ client_secret_hash: 'old-hash' }));
    expect(s.audit.change).not.toHaveBeenCalledWith(
      EM,
      expect.anything(),
      'app.secret_rotated',
      expect.anything(),
    );
  });

  it('post-logout redirect URIs: a PATCH replaces them (normalised) or keeps them; a bad one changes nothing', async () => {
    const s = setup(confidential({ post_logout_redirect_uris: ['https://c.example/old'] }));
    const patch = (uris?: string[]) => s.service.update(caller(), 'a1', { post_logout_redirect_uris: uris });
    expect((await patch(undefined)).post_logout_redirect_uris).toEqual(['https://c.example/old']);
    await expect(patch(['https://c.example/bye#'])).rejects.toEqual(err(400, 'apps.INVALID'));
    expect(s.repo.save).toHaveBeenCalledTimes(1);
    const out = await patch(['HTTPS://C.EXAMPLE/bye', ' ']);
    expect(out.post_logout_redirect_uris).toEqual(['https://c.example/bye']);
  });

  it('a move to confidential mints the first secret, answered in that response and audited; back to public drops it', async () => {
    const s = setup(
      app({ type: 'OAUTH', oauth_client_type: 'public', redirect_uris: ['https://s.example/cb'] }),
    );
    const conf = await s.service.update(caller(), 'a1', { oauth_client_type: 'confidential' });
    expect(conf.client_secret).toBe('new-secret');
    expect(s.repo.save).toHaveBeenLastCalledWith(
      EM,
      expect.objectContaining({ client_secret_hash: 'new-hash' }),
    );
    expect(s.audit.change).toHaveBeenCalledWith(EM, expect.anything(), 'app.secret_rotated', {
      type: 'app',
      id: 'a1',
    });
    const pub = await s.service.update(caller(), 'a1', { oauth_client_type: 'public' });
    expect(pub).not.toHaveProperty('client_secret');
    expect(s.repo.save).toHaveBeenLastCalledWith(EM, expect.objectContaining({ client_secret_hash: null }));
    expect(s.mint.clientSecret).toHaveBeenCalledTimes(1);
  });

  it('a confidential client that comes to act as someone (or under a wider ceiling) gets a new secret', async () => {
    const s = setup(confidential());
    const out = await s.service.update(caller(), 'a1', { default_user_id: 'u2' });
    expect(s.mint.clientSecret).toHaveBeenCalledWith(expect.anything(), {
      default_user_id: 'u2',
      acting_rights_cap: ['can_read_apps'],
    });
    expect(out.client_secret).toBe('new-secret');
    // the same acting user under the same ceiling: no new secret
    const same = setup(confidential({ default_user_id: 'u2', acting_rights_cap: ['can_read_apps'] }));
    await same.service.update(caller(), 'a1', { default_user_id: 'u2' });
    expect(same.mint.clientSecret).not.toHaveBeenCalled();
  });

  it('only an administrator changes the acting user or the client type; the unchanged values sent back are fine', async () => {
    const writer = caller({ isAdmin: false }, ['can_write_apps' as Role]);
    let s = setup(
      app({ type: 'OAUTH', oauth_client_type: 'public', redirect_uris: ['https://b.example/cb'] }),
    );
    await expect(
      s.service.update(writer, 'a1', { oauth_client_type: 'confidential', default_user_id: 'admin' }),
    ).rejects.toEqual(err(403, 'apps.ACTING_USER_ADMIN_ONLY'));
    nothingWritten(s);
    s = setup(app({ default_user_id: 'u2' }));
    await expect(s.service.update(writer, 'a1', { default_user_id: 'admin' })).rejects.toEqual(
      err(403, 'apps.ACTING_USER_ADMIN_ONLY'),
    );
    expect(s.mint.clientSecret).not.toHaveBeenCalled();
    nothingWritten(s);
    await s.service.update(writer, 'a1', { name: 'renamed', default_user_id: 'u2', oauth_client_type: null });
    expect(s.repo.save).toHaveBeenCalledWith(EM, expect.objectContaining({ name: 'renamed' }));
  });

  it('an app whose acting user outranks the caller cannot be changed, rotated or deleted (403)', async () => {
    const s = setup(confidential({ default_user_id: 'boss' }), {
      actingRights: { member: true, active: true },
      beyond: ['administrator'],
    });
    const refused = err(403, 'apps.ACTING_USER_OUTRANKS_CALLER');
    await expect(s.service.update(caller(), 'a1', { description: 'x' })).rejects.toEqual(refused);
    await expect(s.service.rotateSecret(caller(), 'a1')).rejects.toEqual(refused);
    await expect(s.service.remove(caller(), 'a1')).rejects.toEqual(refused);
    expect(s.rights.beyondCaller).toHaveBeenCalledWith(expect.anything(), 'boss', {
      member: true,
      active: true,
    });
    nothingWritten(s);
    expect(s.clients.changed).not.toHaveBeenCalled();
  });

  it('another domain’s app and the built-in one are not found', async () => {
    const s = setup(app({ system_domain_id: 'd2' }));
    await expect(s.service.update(caller(), 'a1', { description: 'x' })).rejects.toEqual(
      err(404, 'apps.NOT_FOUND'),
    );
    await expect(s.service.remove(caller(), 'a1')).rejects.toEqual(err(404, 'apps.NOT_FOUND'));
    expect(s.repo.findInDomain).toHaveBeenCalledWith('d1', 'a1');
    nothingWritten(s);
  });
});

describe('AppsService.rotateSecret and remove', () => {
  it('a confidential client’s secret is replaced in one transaction with its audit record; every instance is told', async () => {
    const s = setup(confidential());
    const out = await s.service.rotateSecret(caller(), 'a1');
    expect(out.client_secret).toBe('new-secret');
    expect(s.repo.save).toHaveBeenCalledWith(EM, expect.objectContaining({ client_secret_hash: 'new-hash' }));
    expect(s.audit.change).toHaveBeenCalledWith(EM, expect.anything(), 'app.secret_rotated', {
      type: 'app',
      id: 'a1',
    });
    expect(s.clients.changed).toHaveBeenCalledWith('a1');
  });

  it('only confidential clients have a secret to rotate (400)', async () => {
    for (const a of [
      app(),
      app({ type: 'OAUTH', oauth_client_type: 'public', redirect_uris: ['https://p.example/cb'] }),
    ]) {
      const s = setup(a);
      await expect(s.service.rotateSecret(caller(), 'a1')).rejects.toEqual(err(400, 'apps.NO_CLIENT_SECRET'));
      expect(s.mint.clientSecret).not.toHaveBeenCalled();
      nothingWritten(s);
    }
  });

  it('remove deletes the app with its event in one transaction, then tells every instance', async () => {
    const s = setup();
    await s.service.remove(caller(), 'a1');
    expect(s.repo.remove).toHaveBeenCalledWith(EM, 'a1');
    expectEvent(s.events, EM, { operation: 'delete', data: { id: 'a1' } });
    expectAudited(s.audit, EM, 'app.deleted', { type: 'app', id: 'a1' }, { type: 'PAT' });
    expect(s.clients.changed).toHaveBeenCalledWith('a1');
  });
});

describe('AppsService tokens', () => {
  it('a PAT only for a PAT app (an OAuth app: 400), minted by the mint', async () => {
    let s = setup(
      app({ type: 'OAUTH', oauth_client_type: 'public', redirect_uris: ['https://p.example/cb'] }),
    );
    await expect(s.service.issuePat(caller(), 'a1', undefined)).rejects.toEqual(
      err(400, 'apps.PAT_FOR_OAUTH_APP'),
    );
    expect(s.mint.pat).not.toHaveBeenCalled();
    s = setup();
    const out = await s.service.issuePat(caller(), 'a1', 3600);
    expect(s.mint.pat).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ id: 'a1' }), 3600);
    expect(out).toEqual({ id: 't1', token: 'jwt' });
  });
});
