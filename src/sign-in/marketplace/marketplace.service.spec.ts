import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { AppConfig } from '../../app/config.js';
import type { ClaimedNonce } from './marketplace.repository.js';
import { MarketplaceService } from './marketplace.service.js';
import { fixedClock, recordingEvents, repoWithTransaction } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const EM = { em: true } as unknown as EntityManager;
const NONCE = 'n'.repeat(43);
const CLAIMED: ClaimedNonce = { cloud: 'aws', customer_id: 'cust-1', entitlement_id: 'ent-1' };
const config = {
  marketplace: { nonceTtlSeconds: 3600 },
  http: { publicBaseUrl: 'https://auth.example.test' },
} as unknown as AppConfig;

function setup(
  o: { claimed?: ClaimedNonce; customer?: string | null; admin?: boolean; elsewhere?: boolean } = {},
) {
  const repo = repoWithTransaction(EM, {
    insertNonce: jest.fn(async () => undefined),
    deleteEnded: jest.fn(async () => undefined),
    isUsable: jest.fn(async () => true),
    claim: jest.fn(async () => o.claimed),
    lockDomainCustomer: jest.fn(async () =>
      o.customer === undefined ? undefined : { marketplace_customer_id: o.customer },
    ),
    linkDomain: jest.fn(async () => undefined),
    administers: jest.fn(async () => o.admin ?? false),
    linkedElsewhere: jest.fn(async () => o.elsewhere ?? false),
  });
  const verifier = {
    verify: jest.fn(async () => ({ jti: 'j1', customerId: 'cust-1', entitlementId: 'ent-1', expires: NOW })),
    isConfigured: jest.fn((cloud: string) => cloud === 'aws'),
  };
  const events = recordingEvents();
  const service = construct(
    MarketplaceService,
    repo,
    config,
    config.marketplace,
    fixedClock(NOW),
    verifier,
    events,
  );
  return { service, repo, events };
}

describe('MarketplaceService.signup', () => {
  it('stores only the hash of a fresh nonce, for the token the cloud verified', async () => {
    const { service, repo } = setup();
    const out = await service.signup('aws', 'jwt');
    const stored = (repo.insertNonce.mock.calls[0] as unknown[])[0] as Record<string, unknown>;
    expect(stored).toMatchObject({
      cloud: 'aws',
      jti: 'j1',
      nonceSha256: sha256Hex(out.marketplace_signup_nonce),
    });
    expect(JSON.stringify(stored)).not.toContain(out.marketplace_signup_nonce);
    expect((stored.expires as Date).getTime() - NOW.getTime()).toBe(3600_000);
    expect(out.registration_url).toBe(
      `https://auth.example.test/registrations?marketplace_signup_nonce=${out.marketplace_signup_nonce}`,
    );
  });

  it('answers a replayed token (unique violation) with 400 and rethrows anything else', async () => {
    const replay = setup();
    replay.repo.insertNonce.mockRejectedValueOnce(Object.assign(new Error('dup'), { code: '23505' }));
    await expect(replay.service.signup('aws', 'jwt')).rejects.toMatchObject({
      status: 400,
      code: 'marketplace.TOKEN_REPLAYED',
    });
    const down = setup();
    down.repo.insertNonce.mockRejectedValueOnce(new Error('connection lost'));
    await expect(down.service.signup('aws', 'jwt')).rejects.toThrow('connection lost');
  });
});

describe('MarketplaceService.consume', () => {
  it('refuses a nonce of the wrong shape before any query', async () => {
    const { service, repo } = setup({ claimed: CLAIMED, customer: null });
    await expect(service.consume(EM, "x' OR '1'='1", 'd1')).rejects.toMatchObject({ status: 400 });
    await expect(service.assertUsable('short')).rejects.toMatchObject({ status: 400 });
    expect(repo.claim).not.toHaveBeenCalled();
    expect(repo.isUsable).not.toHaveBeenCalled();
  });

  it('links the domain to the claimed customer and records the event in the same transaction', async () => {
    const { service, repo, events } = setup({ claimed: CLAIMED, customer: null });
    const out = await service.consume(EM, NONCE, 'd1', { requestId: 'r1' });
    expect(repo.claim).toHaveBeenCalledWith(EM, sha256Hex(NONCE), NOW, 'd1');
    expect(repo.linkDomain).toHaveBeenCalledWith(EM, 'd1', CLAIMED, NOW);
    expect(out).toEqual({
      system_domain_id: 'd1',
      cloud: 'aws',
      marketplace_customer_id: 'cust-1',
      marketplace_entitlement_id: 'ent-1',
    });
    expect(events.record).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ systemDomainId: 'd1', requestId: 'r1' }),
    );
  });

  it.each([
    ['an unclaimable nonce', { customer: null }, { cloud: undefined }, 'marketplace.NONCE_INVALID'],
    ['another cloud', { claimed: CLAIMED, customer: null }, { cloud: 'gcp' }, 'marketplace.CLOUD_MISMATCH'],
    [
      'a domain of another customer',
      { claimed: CLAIMED, customer: 'cust-2' },
      {},
      'marketplace.ALREADY_LINKED',
    ],
    ['a vanished domain', { claimed: CLAIMED }, {}, 'marketplace.NONCE_INVALID'],
  ])('refuses %s and links nothing', async (_what, state, options, code) => {
    const { service, repo } = setup(state);
    await expect(service.consume(EM, NONCE, 'd1', options)).rejects.toMatchObject({ code });
    expect(repo.linkDomain).not.toHaveBeenCalled();
  });

  it('relinks a domain already linked to the same customer', async () => {
    const { service, repo } = setup({ claimed: CLAIMED, customer: 'cust-1' });
    await service.consume(EM, NONCE, 'd1');
    expect(repo.linkDomain).toHaveBeenCalled();
  });
});

describe('MarketplaceService.consumeAtSignIn', () => {
  it('consumes only for an administrator of a domain not linked elsewhere', async () => {
    const notAdmin = setup({ claimed: CLAIMED, customer: null, admin: false });
    expect(await notAdmin.service.consumeAtSignIn(EM, NONCE, 'u1', 'd1', null)).toBe(false);
    const elsewhere = setup({ claimed: CLAIMED, customer: null, admin: true, elsewhere: true });
    expect(await elsewhere.service.consumeAtSignIn(EM, NONCE, 'u1', 'd1', null)).toBe(false);
    expect(notAdmin.repo.claim).not.toHaveBeenCalled();
    expect(elsewhere.repo.claim).not.toHaveBeenCalled();
    const admin = setup({ claimed: CLAIMED, customer: null, admin: true });
    expect(await admin.service.consumeAtSignIn(EM, NONCE, 'u1', 'd1', 'r1')).toBe(true);
    expect(admin.repo.linkDomain).toHaveBeenCalled();
  });

  it('refuses to link through an unknown cloud before opening a transaction', () => {
    const { service, repo } = setup({ claimed: CLAIMED, customer: null });
    let thrown: unknown;
    try {
      void service.link('d1', NONCE, 'r1', 'nowhere');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ status: 404, code: 'marketplace.UNKNOWN_CLOUD' });
    expect(repo.transaction).not.toHaveBeenCalled();
  });
});
