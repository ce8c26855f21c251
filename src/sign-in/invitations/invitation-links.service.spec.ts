import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { InvitationEntity } from '../../base/model/invitation.entity.js';
import type { InvitationLinkEntity } from '../../base/model/invitation-link.entity.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { fixedClock, memberContext, transactionalRepo } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectInvitationMailed, mailAndEvents, seatRules } from '../../../test/utils/fakes/invitations.js';

const seats = seatRules();
jest.unstable_mockModule('../../accounts/users/seat-limits.js', () => seats.module);
const { InvitationLinksService } = await import('./invitation-links.service.js');
const { INVITATION_TTL_MS } = await import('./invitations.service.js');

const TOKEN = 't'.repeat(43);
const config = { http: { publicBaseUrl: 'https://auth.example.test' } } as unknown as BaseConfig;
const caller = (over: Partial<AuthContext> = {}, roles: string[] = ['can_read_assets']) =>
  memberContext({ roles, ...over });

const link = (over: Partial<InvitationLinkEntity> = {}) =>
  ({
    id: 'l1',
    system_domain_id: 'd1',
    created_by_user_id: 'u1',
    primary_group_id: 'g1',
    group_ids: ['g2'],
    is_admin: true,
    type: 'POWER',
    expires: new Date(NOW.getTime() + 1000),
    ...over,
  }) as InvitationLinkEntity;

function setup(
  o: {
    groups?: { id: string; roles: string[] }[];
    linkId?: string;
    link?: InvitationLinkEntity;
    invitation?: InvitationEntity | null;
    live?: boolean;
    taken?: boolean;
    domain?: Partial<SystemDomainEntity>;
  } = {},
) {
  const order: string[] = [];
  seats.arm(order);
  const repo = transactionalRepo(order, EM, {
    manager: EM,
    linkGroups: jest.fn(async () => o.groups ?? [{ id: 'g1', roles: [] }]),
    insertLink: jest.fn(async (_em: unknown, f: Partial<InvitationLinkEntity>) => {
      order.push('insert-link');
      return { ...f, id: 'l-new' } as InvitationLinkEntity;
    }),
    liveLinkId: jest.fn(async (_em: unknown, _h: string) => o.linkId),
    linkOrFail: jest.fn(async () => o.link ?? link()),
    invitationByHash: jest.fn(async () => (o.invitation === undefined ? null : o.invitation)),
    liveDomainName: jest.fn(async () => (o.live === false ? undefined : 'Corp')),
    domainOrFail: jest.fn(
      async () => ({ id: 'd1', name: 'Corp', status: 'ACTIVE', ...o.domain }) as SystemDomainEntity,
    ),
    emailTaken: jest.fn(async () => o.taken ?? false),
    insertInvitation: jest.fn(async (_em: unknown, f: Partial<InvitationEntity>) => {
      order.push('insert-invitation');
      return { ...f, id: 'inv-new' } as InvitationEntity;
    }),
    purge: jest.fn(async () => ({ invitations: ['i1', 'i2'], links: ['l1'] })),
  });
  const { mail, events } = mailAndEvents(order);
  const audit = {
    change: jest.fn(async (_em: unknown, _a: unknown, action: string, _t: unknown, _d: unknown) => {
      order.push(`audit:${action}`);
    }),
  };
  const service = construct(InvitationLinksService, config, fixedClock(NOW), mail, events, audit, repo);
  return { service, repo, mail, events, audit, order };
}

describe('InvitationLinksService.request', () => {
  it('makes a link for the domain’s groups: the primary apart, the token’s hash stored, 7 days, with event and audit', async () => {
    const s = setup({
      groups: [
        { id: 'g1', roles: [] },
        { id: 'g2', roles: [] },
      ],
    });
    const out = await s.service.request(caller({ isAdmin: true }), {
      primary_group: 'g1',
      groups: ['g2', 'g1'],
      is_admin: true,
    });
    expect(s.repo.linkGroups).toHaveBeenCalledWith(EM, 'd1', ['g1', 'g2']);
    expect(s.repo.insertLink.mock.calls[0][1]).toMatchObject({
      system_domain_id: 'd1',
      created_by_user_id: 'u1',
      primary_group_id: 'g1',
      group_ids: ['g2'],
      is_admin: true,
      type: 'STANDARD',
      secret_sha256: sha256Hex(out.token),
      expires: new Date(NOW.getTime() + INVITATION_TTL_MS),
    });
    expect(s.order).toEqual([
      'begin',
      'insert-link',
      'event:invitation_link:create:l-new',
      'audit:invitation.link_created',
      'commit',
    ]);
  });

  it('only an administrator may make a link that grants administration', async () => {
    const s = setup();
    await expect(s.service.request(caller(), { primary_group: 'g1', is_admin: true })).rejects.toMatchObject({
      code: 'invitations.LINK_ADMIN_ONLY',
    });
    expect(s.repo.transaction).not.toHaveBeenCalled();
  });

  it('refuses a group outside the domain', async () => {
    const s = setup({ groups: [{ id: 'g1', roles: [] }] });
    await expect(
      s.service.request(caller(), { primary_group: 'g1', groups: ['g-other'] }),
    ).rejects.toMatchObject({
      code: 'invitations.GROUP_NOT_FOUND',
    });
    expect(s.repo.insertLink).not.toHaveBeenCalled();
  });

  it('a link grants no role its maker lacks (administrators excepted)', async () => {
    const groups = [{ id: 'g1', roles: ['can_read_assets', 'can_write_users', 'can_delete_users'] }];
    const s = setup({ groups });
    const err = await s.service.request(caller(), { primary_group: 'g1' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invitations.LINK_EXCEEDS_ROLES' });
    expect(JSON.stringify(err)).toContain('can_write_users, can_delete_users');
    const holder = setup({ groups: [{ id: 'g1', roles: ['can_read_assets'] }] });
    await expect(holder.service.request(caller(), { primary_group: 'g1' })).resolves.toBeTruthy();
    const admin = setup({ groups });
    await expect(
      admin.service.request(caller({ isAdmin: true }), { primary_group: 'g1' }),
    ).resolves.toBeTruthy();
  });
});

describe('InvitationLinksService.validate', () => {
  it('a link: its state with the domain’s name; expired or its domain gone, LINK_EXPIRED', async () => {
    const s = setup({ linkId: 'l1' });
    await expect(s.service.validate(TOKEN)).resolves.toMatchObject({
      valid: true,
      kind: 'link',
      system_domain_name: 'Corp',
      type: 'POWER',
    });
    expect(s.repo.liveLinkId).toHaveBeenCalledWith(EM, sha256Hex(TOKEN));
    await expect(
      setup({ linkId: 'l1', link: link({ expires: NOW }) }).service.validate(TOKEN),
    ).rejects.toMatchObject({
      code: 'invitations.LINK_EXPIRED',
    });
  });

  it('else a single-use invitation: unknown NOT_FOUND, accepted or expired LINK_EXPIRED', async () => {
    await expect(setup().service.validate(TOKEN)).rejects.toMatchObject({ code: 'invitations.NOT_FOUND' });
    const pending = {
      system_domain_id: 'd1',
      type: 'STANDARD',
      accepted_at: null,
      expires: new Date(NOW.getTime() + 1),
    };
    await expect(
      setup({ invitation: pending as InvitationEntity }).service.validate(TOKEN),
    ).resolves.toMatchObject({ kind: 'invitation' });
    for (const over of [{ accepted_at: NOW }, { expires: NOW }]) {
      await expect(
        setup({ invitation: { ...pending, ...over } as InvitationEntity }).service.validate(TOKEN),
      ).rejects.toMatchObject({ code: 'invitations.LINK_EXPIRED' });
    }
    await expect(
      setup({ invitation: pending as InvitationEntity, live: false }).service.validate(TOKEN),
    ).rejects.toMatchObject({ code: 'invitations.LINK_EXPIRED' });
  });
});

describe('InvitationLinksService.register', () => {
  const body = { token: TOKEN, email: 'ada@corp.test', first_name: 'Ada' };

  it('mails a single-use invitation carrying what the link grants, under the domain’s lock, holding a seat of its type', async () => {
    const s = setup({ linkId: 'l1' });
    const out = await s.service.register(body, 'req1');
    expect(s.order).toEqual([
      'begin',
      'lock',
      'seat',
      'insert-invitation',
      'mail:ada@corp.test',
      'event:invitation:create:inv-new',
      'commit',
    ]);
    const { row, secret } = expectInvitationMailed(s, seats, 'POWER');
    expect(row).toMatchObject({ email: 'ada@corp.test', group_ids: ['g1', 'g2'], is_admin: true });
    expect(secret).not.toBe(TOKEN);
    expect(out).toMatchObject({ email: 'ada@corp.test', system_domain_id: 'd1' });
  });

  it('answers the same, and makes nothing, for a member or an address with an invitation pending', async () => {
    const s = setup({ linkId: 'l1', taken: true });
    const out = await s.service.register(body, null);
    expect(out).toEqual(await setup({ linkId: 'l1' }).service.register(body, null));
    expect(s.repo.insertInvitation).not.toHaveBeenCalled();
    expect(s.mail.queue).not.toHaveBeenCalled();
  });

  it('an unknown token is NOT_FOUND; a frozen domain refuses; a link purged meanwhile is LINK_EXPIRED', async () => {
    await expect(setup().service.register(body, null)).rejects.toMatchObject({
      code: 'invitations.NOT_FOUND',
    });
    await expect(
      setup({ linkId: 'l1', domain: { status: 'FROZEN' } }).service.register(body, null),
    ).rejects.toMatchObject({ code: 'auth.DOMAIN_FROZEN' });
    const s = setup({ linkId: 'l1' });
    s.repo.liveLinkId.mockResolvedValueOnce('l1').mockResolvedValueOnce(undefined);
    await expect(s.service.register(body, null)).rejects.toMatchObject({ code: 'invitations.LINK_EXPIRED' });
    expect(s.repo.insertInvitation).not.toHaveBeenCalled();
  });
});

describe('InvitationLinksService.purge', () => {
  it('under the domain’s lock: an event per deleted invitation and link, and one audit record with the counts', async () => {
    const s = setup();
    await s.service.purge(caller({ isAdmin: true }));
    expect(s.order).toEqual([
      'begin',
      'lock',
      'event:invitation:delete:i1',
      'event:invitation:delete:i2',
      'event:invitation_link:delete:l1',
      'audit:invitation.purged',
      'commit',
    ]);
    expect(s.audit.change.mock.calls[0][4]).toEqual({ invitations: 2, links: 1 });
  });
});
