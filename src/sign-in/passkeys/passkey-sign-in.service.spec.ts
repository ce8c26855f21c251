// Signing in with a passkey (PasskeySignIn) over fakes: a repository whose challenges behave as the table does
// (single use, per ceremony, until they expire), a guessing defence that runs the verification, and real
// assertions from a software authenticator holding the accounts' passkeys. Every refusal is the one answer
// (401 passkeys.NOT_ACCEPTED), its own reason on record.
import { describe, expect, it, jest } from '@jest/globals';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { authContext, fixedClock, repoWithTransaction, resolves, wire } from '../../../test/utils/fakes.js';
import type { CallerFields } from '../../../test/utils/fakes.js';
import { SoftAuthenticator, type SoftGetOptions } from '../../../test/utils/soft-authenticator.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type { BaseConfig } from '../../base/config/config.js';
import { deriveKey } from '../../base/keys/key-encryption.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { OUTSIDE_REQUEST } from '../../delivery/audit/audit-origin.js';
import { PasskeySignIn } from './passkey-sign-in.service.js';
import type { PasskeyWithKey } from './passkeys.repository.js';
import { creationOptions, decoyCredential, verifyRegistration } from './webauthn.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { expectEvent } from '../../../test/utils/fakes/expect.js';
import { challengeStore, ORIGIN, PASSKEYS_CONFIG as CONFIG } from '../../../test/utils/fakes/passkeys.js';

const EM = { em: 'passkey-sign-in' };
const SECRET = 'a-service-secret-for-the-decoys';
const decoyOf = (email: string) => decoyCredential(deriveKey(SECRET, 'webauthn-decoy-credentials'), email);
/** The request a sign-in comes in (a public route: nobody known yet), and the same once u1 is known. */
const REQUEST = { ...OUTSIDE_REQUEST, requestId: 'req-1', clientAddress: '203.0.113.9' };
const AS_U1 = { ...REQUEST, actorUserId: 'u1' };
/** The accounts' WebAuthn user handles. */
const HANDLE: Record<string, string> = { u1: 'aGFuZGxlLXUx', u2: 'aGFuZGxlLXUy' };

const person = (id: string, status = 'ACTIVE') =>
  ({ id, email: `${id}@example.com`, status, system_domain_id: `home-${id}` }) as UserEntity;
const domain = (over: Partial<SystemDomainEntity> = {}) =>
  ({ id: 'd1', status: 'ACTIVE', mfa_required: false, mfa_methods: [], ...over }) as SystemDomainEntity;
/** The token record the sign-in authority issues for a completed second factor. */
const ISSUED = { id: 't-new', user_id: 'u1', system_domain_id: 'd1', is_mfa_authenticated: true };
const DATES = { expires: NOW, date_created: NOW, date_modified: NOW, revoked_at: null, last_used_at: null };
type Pending = ReturnType<typeof authContext>;
const TEMP = { kind: 'TEMP' as const, requestId: 'r-temp', systemDomainId: 'd1' };
const TENANT = { record: { vouched_by_tenant: true }, rightsCap: ['admin'] };
/** A pending sign-in of `userId` (its temporary token `tokenId`), in d1, a tenant's, with a ceiling. */
const pendingOf = (userId = 'u1', tokenId = 't1', over: CallerFields = {}): Pending =>
  authContext({ userId, tokenId, ...TEMP, systemDomains: ['d1', 'd2'], ...TENANT, ...over });
type Answer = AuthenticationResponseJSON;

/** Users u1 (passkey p1 on `authenticator`), u2 (p2 on another), u3 (none); the service over fakes. */
async function world() {
  const users = new Map(['u1', 'u2', 'u3'].map((id) => [id, person(id)]));
  const passkeys = new Map<string, PasskeyWithKey>();
  const authenticator = new SoftAuthenticator();
  for (const [userId, id] of Object.entries({ u1: 'p1', u2: 'p2' })) {
    const on = userId === 'u1' ? authenticator : new SoftAuthenticator();
    const user = { handle: HANDLE[userId], email: `${userId}@example.com`, displayName: userId };
    const options = await creationOptions(CONFIG, user, []);
    const v = await verifyRegistration(CONFIG, on.create(options, { origin: ORIGIN }), options.challenge);
    if (!v.ok) throw new Error(v.reason);
    const row = { id, user_id: userId, credential_id: v.credentialId, public_key: v.publicKey, counter: '0' };
    const more = { transports: v.transports, aaguid: v.aaguid, device_type: v.deviceType, backed_up: false };
    const dates = { date_created: NOW, last_used: null, flagged_at: null };
    passkeys.set(v.credentialId, { ...row, ...more, ...dates, name: `Passkey ${id}` });
  }
  const passkeyOf = (id: string) => [...passkeys.values()].find((p) => p.id === id)!;

  const { challenges, ...challengeMethods } = challengeStore();
  const byEmail = (email: string) => [...users.values()].find((u) => u.email === email);
  const userBy = async (by: { email: string } | { id: string }) =>
    'id' in by ? users.get(by.id) : byEmail(by.email);
  const repo = repoWithTransaction(EM, {
    list: jest.fn(async (userId: string) => [...passkeys.values()].filter((p) => p.user_id === userId)),
    user: jest.fn(userBy),
    byCredentialId: jest.fn(async (id: string) => passkeys.get(id) ?? null),
    userOfHandle: jest.fn(async (handle: string) => Object.keys(HANDLE).find((u) => HANDLE[u] === handle)),
    ...challengeMethods,
    ...{ recordUse: resolves(true), flag: resolves(undefined), touchLastLogin: resolves(undefined) },
    liveMemberDomain: jest.fn(async (_u: string, id: string) => domain({ id }) as SystemDomainEntity | null),
  });
  type Outcome = 'ok' | 'wrong' | 'locked';
  const attempt = async (_u: string, _f: string, verify: () => Promise<boolean>, _o: unknown) =>
    ((await verify()) ? 'ok' : 'wrong') as Outcome;
  const guessing = { attempt: jest.fn(attempt) };
  const record = { token: 'domain-jwt', record: { ...ISSUED, ...DATES } };
  const signIns = { passkeySignIn: resolves({ token: 'login-jwt' }), completeSecondFactor: resolves(record) };
  const tokens = { revoke: resolves(true), isDomainAdmin: resolves(true) };
  const audit = { record: resolves(undefined), recordAlone: resolves(undefined) };
  const [events, mail] = [{ record: resolves(undefined) }, { queue: resolves(undefined) }];
  const app = { auth: { keyEncryptionSecret: SECRET } } as BaseConfig;
  const fakes = { repo, guessing, signIns, tokens, audit, events, mail };
  const args = [repo, CONFIG, app, fixedClock(NOW), guessing, signIns, tokens, audit, events, mail];
  const make = () => new PasskeySignIn(...(args as unknown as ConstructorParameters<typeof PasskeySignIn>));
  const service = make();
  /** Options from the service for `email` (null: usernameless) or `pending`, answered with misbehaviours `o`. */
  const answer = async (email: string | null, pending: Pending | null, o: Partial<SoftGetOptions> = {}) => {
    const options = await service.options(email ? { email } : {}, pending);
    return authenticator.get(options as never, { origin: ORIGIN, ...o });
  };
  const signIn = (response: AuthenticationResponseJSON, system_domain_id?: string) =>
    service.signIn({ response, system_domain_id } as never, REQUEST);
  const complete = (response: AuthenticationResponseJSON, pending = pendingOf(), system_domain_id?: string) =>
    service.completeSecondFactor({ response, system_domain_id } as never, pending, REQUEST);
  const lastChallenge = () => repo.issueChallenge.mock.calls.at(-1)!;
  const calls = { answer, signIn, complete, lastChallenge };
  return { ...fakes, ...calls, service, make, users, passkeys, passkeyOf, challenges };
}
type World = Awaited<ReturnType<typeof world>>;
type Hook = (w: World) => unknown;

/** The methods of a device-bound passkey after a password (OpenID Connect amr). */
const AFTER_PWD = ['pwd', 'hwk', 'mfa'];
const NOT_ACCEPTED = { status: 401, code: 'passkeys.NOT_ACCEPTED', errors: ['Passkey not accepted'] };
/** The one answer to a refused passkey sign-in. */
const notAccepted = async (p: Promise<unknown>) =>
  expect(wire(await p.catch((e: unknown) => e))).toEqual(NOT_ACCEPTED);

/** The refusal's one record: signin.failure of the factor webauthn, its reason, its user and passkey. */
function refusedOnRecord(w: World, reason: string, userId: string | null, passkey = userId !== null) {
  const details = { factor: 'webauthn', reason, ...(passkey ? { webauthn_id: 'p1' } : {}) };
  const target = { systemDomainId: userId && `home-${userId}`, targetType: userId && 'user' };
  const entry = { action: 'signin.failure', outcome: 'failure', ...target, targetId: userId, details };
  expect(w.audit.recordAlone.mock.calls).toEqual([[{ ...REQUEST, actorUserId: userId }, entry]]);
}

/** Nothing was issued, or recorded as a use. */
function nothingIssued(w: World) {
  const { recordUse } = w.repo;
  for (const f of [recordUse, w.signIns.passkeySignIn, w.signIns.completeSecondFactor, w.tokens.revoke])
    expect(f).not.toHaveBeenCalled();
  const used = expect.objectContaining({ action: 'passkey.used' });
  expect(w.audit.record).not.toHaveBeenCalledWith(EM, expect.anything(), used);
}

describe('PasskeySignIn.options', () => {
  it('for a pending sign-in: its account’s passkeys, user presence, bound to its token', async () => {
    const w = await world();
    // an email given beside the pending sign-in does not choose the account
    const options = await w.service.options({ email: 'u2@example.com' }, pendingOf());
    const p1 = { id: w.passkeyOf('p1').credential_id, type: 'public-key' };
    expect(options.allowCredentials).toEqual([{ ...p1, transports: ['internal', 'hybrid'] }]);
    expect(options).toMatchObject({ userVerification: 'preferred', rpId: 'localhost' });
    const bound = { ceremony: 'authentication', user_id: 'u1', temp_token_id: 't1', require_uv: false };
    const expires = new Date(NOW.getTime() + 5 * 60_000);
    const sha = expect.stringMatching(/^[0-9a-f]{64}$/);
    expect(w.lastChallenge()).toEqual([{ challenge_sha256: sha, ...bound, expires }, NOW]);
  });

  it('for an email: its account’s passkeys, a flagged one not; user verification required', async () => {
    const w = await world();
    const options = await w.service.options({ email: 'u1@example.com' }, null);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([w.passkeyOf('p1').credential_id]);
    expect(options.userVerification).toBe('required');
    expect(w.lastChallenge()[0]).toMatchObject({ user_id: 'u1', temp_token_id: null, require_uv: true });
    w.passkeyOf('p1').flagged_at = NOW;
    const flagged = await w.service.options({ email: 'u1@example.com' }, null);
    // …the decoy an account without passkeys gets instead
    const decoy = decoyOf('u1@example.com').credential_id;
    expect(flagged.allowCredentials?.map((c) => c.id)).toEqual([decoy]);
  });

  it('for an unknown email: a decoy from the email, the same at every request and instance', async () => {
    const w = await world();
    const a = await w.service.options({ email: 'ghost@example.com' }, null);
    expect(w.lastChallenge()[0]).toMatchObject({ user_id: null, temp_token_id: null, require_uv: true });
    const b = await w.make().options({ email: 'ghost@example.com' }, null);
    const decoy = decoyOf('ghost@example.com');
    const expected = [{ id: decoy.credential_id, type: 'public-key', transports: decoy.transports }];
    expect([a.allowCredentials, b.userVerification]).toEqual([expected, 'required']);
    expect(b.allowCredentials).toEqual(expected);
    expect(a.challenge).not.toBe(b.challenge);
    const other = await w.service.options({ email: 'ghost2@example.com' }, null);
    expect(other.allowCredentials).not.toEqual(a.allowCredentials);
    // an account without passkeys looks the same as no account
    const u3 = await w.service.options({ email: 'u3@example.com' }, null);
    expect(u3.allowCredentials?.map((c) => c.id)).toEqual([decoyOf('u3@example.com').credential_id]);
  });

  it('usernameless: no passkey named, user verification required, bound to nobody', async () => {
    const w = await world();
    const options = await w.service.options({}, null);
    expect([options.allowCredentials, options.userVerification]).toEqual([[], 'required']);
    const bound = { ceremony: 'authentication', user_id: null, temp_token_id: null, require_uv: true };
    expect(w.lastChallenge()[0]).toMatchObject(bound);
  });
});

describe('PasskeySignIn.signIn (the passkey alone)', () => {
  it('an email-bound assertion (no user handle needed) signs in via the authority, its use recorded first', async () => {
    const w = await world();
    const answered = await w.answer('u1@example.com', null, { userHandle: null });
    expect(await w.signIn(answered, 'd1')).toEqual({ token: 'login-jwt' });
    expect(w.repo.userOfHandle).not.toHaveBeenCalled();
    // a device-bound passkey (single-device): its key is hardware's; the device verified its user
    const opts = { origin: REQUEST, domainId: 'd1', amr: ['hwk', 'user', 'mfa'] };
    expect(w.signIns.passkeySignIn).toHaveBeenCalledWith(w.users.get('u1'), expect.any(Function), opts);
    const unauthorized = w.signIns.passkeySignIn.mock.calls[0][1] as () => unknown;
    expect(wire(unauthorized())).toMatchObject({ status: 401, code: 'passkeys.NOT_ACCEPTED' });
    expect(w.guessing.attempt).toHaveBeenCalledWith('u1', 'webauthn', expect.any(Function), AS_U1);
    expect(w.repo.recordUse).toHaveBeenCalledWith(EM, 'p1', 1, NOW);
    const details = { webauthn_id: 'p1', second_factor: false };
    const target = { systemDomainId: 'home-u1', targetType: 'user', targetId: 'u1' };
    const entry = { action: 'passkey.used', outcome: 'success', ...target, details };
    expect(w.audit.record).toHaveBeenCalledWith(EM, AS_U1, entry);
    const event = { eventType: 'users', realm: 'webauthn', operation: 'use', objectId: 'u1' };
    const data = { passkey_id: 'p1', second_factor: false, name: 'Passkey p1' };
    const more = { data, requestId: 'req-1', systemDomainId: 'home-u1' };
    expect(w.events.record).toHaveBeenCalledWith(EM, { ...event, ...more });
    expect(w.audit.recordAlone).not.toHaveBeenCalled();
    const order = [w.repo.recordUse, w.signIns.passkeySignIn].map((f) => f.mock.invocationCallOrder[0]);
    expect(order[0]).toBeLessThan(order[1]);
  });

  it('usernameless: the user handle names the passkey’s account', async () => {
    const w = await world();
    const response = await w.answer(null, null);
    expect(response.response.userHandle).toBe(HANDLE.u1);
    await w.signIn(response);
    expect(w.repo.userOfHandle).toHaveBeenCalledWith(HANDLE.u1);
    expect(w.signIns.passkeySignIn.mock.calls[0][0]).toBe(w.users.get('u1'));
  });

  it('counters move on: the new one is recorded; an authenticator without one stays at 0', async () => {
    const w = await world();
    w.passkeyOf('p1').counter = '4';
    await w.signIn(await w.answer(null, null, { counter: 5 }));
    const zero = await w.answer(null, null, { counter: 0 });
    w.passkeyOf('p1').counter = '0';
    await w.signIn(zero);
    expect(w.repo.recordUse.mock.calls.map((c) => c[2])).toEqual([5, 0]);
    expect(w.repo.flag).not.toHaveBeenCalled();
  });

  it('uses a challenge once: the same assertion again is refused (unknown_challenge)', async () => {
    const w = await world();
    const response = await w.answer('u1@example.com', null);
    await w.signIn(response);
    await notAccepted(w.signIn(response));
    refusedOnRecord(w, 'unknown_challenge', 'u1');
    expect([w.signIns.passkeySignIn, w.guessing.attempt].map((f) => f.mock.calls.length)).toEqual([1, 1]);
  });

  // A refusal before the signature is checked (`why`): the options asked (`email`, `pending`) and answered
  // (`get`; `own`: by u1's passkey whatever they name); changes before (`prep`) or after the answer (`then`,
  // `edit`); `as`: sent as the second step of that pending sign-in, else alone.
  type Ask = { why: string; email?: string; pending?: Pending; get?: Partial<SoftGetOptions>; own?: boolean };
  type Hooks = { prep?: Hook; then?: Hook; edit?: (r: Answer) => Answer; as?: Pending };
  const E1 = 'u1@example.com';
  const [P1, P2, UC, UH] = [pendingOf(), pendingOf('u2', 't2'), 'unknown_challenge', 'user_handle'];
  const flag = (w: World) => (w.passkeyOf('p1').flagged_at = NOW);
  const expire = (w: World) => w.challenges.forEach((c) => (c.expires = NOW));
  const inactive = (w: World) => w.users.set('u1', person('u1', 'INACTIVE'));
  it.each([
    ['a passkey nobody registered', { why: 'unknown_passkey', prep: (w) => w.passkeys.clear() }],
    ['a passkey whose account is gone', { why: 'unknown_passkey', prep: (w) => w.users.delete('u1') }],
    ['a challenge never handed out', { why: UC, then: (w) => w.challenges.clear() }],
    ['an expired challenge', { why: UC, then: expire }],
    ['an id other than its rawId', { why: UC, edit: (r) => ({ ...r, rawId: 'b3RoZXI' }) }],
    ['a pending sign-in’s challenge, alone', { why: UC, pending: P1 }],
    ['a challenge of no pending sign-in, for one', { why: UC, as: P1 }],
    ['another temporary token’s challenge', { why: UC, pending: pendingOf('u1', 't9'), as: P1 }],
    ['a passkey not the email’s account’s', { why: 'another_account', email: 'u2@example.com', own: true }],
    ['a passkey not the pending account’s', { why: 'another_account', pending: P2, own: true, as: P2 }],
    ['an inactive account’s passkey', { why: 'inactive', prep: inactive }],
    ['a usernameless answer without a handle', { why: UH, get: { userHandle: null } }],
    ['a usernameless answer with another’s handle', { why: UH, get: { userHandle: HANDLE.u2 } }],
    ['a usernameless answer with nobody’s handle', { why: UH, get: { userHandle: 'bm9ib2R5' } }],
    ['an email-bound answer with another’s handle', { why: UH, email: E1, get: { userHandle: HANDLE.u2 } }],
    ['a flagged passkey', { why: 'flagged', prep: flag }],
    ['a flagged passkey, as a second factor', { why: 'flagged', pending: P1, then: flag, as: P1 }],
  ] as [string, Ask & Hooks][])('refuses %s, before verifying it', async (_n, c) => {
    const w = await world();
    await c.prep?.(w);
    const own = c.own ? { credentialId: w.passkeyOf('p1').credential_id } : {};
    const answered = await w.answer(c.email ?? null, c.pending ?? null, { ...own, ...c.get });
    await c.then?.(w);
    const response = c.edit ? c.edit(answered) : answered;
    await notAccepted(c.as ? w.complete(response, c.as) : w.signIn(response));
    refusedOnRecord(w, c.why, c.why === 'unknown_passkey' ? null : 'u1');
    nothingIssued(w);
    expect(w.guessing.attempt).not.toHaveBeenCalled();
  });

  it.each([
    ['lower than the stored one', '5', 3],
    ['equal to the stored one', '5', 5],
    ['0 after counting', '7', 0],
  ])('flags a passkey whose counter went back (%s), and refuses it', async (_n, stored, now) => {
    const w = await world();
    w.passkeyOf('p1').counter = stored;
    await notAccepted(w.signIn(await w.answer(null, null, { counter: now })));
    expect(await w.guessing.attempt.mock.results[0].value).toBe('wrong');
    expect(w.repo.flag).toHaveBeenCalledWith(EM, 'p1', NOW);
    const target = { systemDomainId: 'home-u1', targetType: 'user', targetId: 'u1' };
    const details = { webauthn_id: 'p1', reason: 'counter_went_back' };
    const entry = { action: 'passkey.flagged', outcome: 'failure', ...target, details };
    expect(w.audit.record).toHaveBeenCalledWith(EM, AS_U1, entry);
    const passkey = expect.objectContaining({ id: 'p1', flagged_at: wireDate(NOW) });
    const event = { realm: 'webauthn', operation: 'update', objectId: 'u1', data: { passkey } };
    expectEvent(w.events, EM, event);
    const mail = { kind: 'passkey_flagged', to: 'u1@example.com' };
    expect(w.mail.queue).toHaveBeenCalledWith(EM, expect.objectContaining(mail));
    nothingIssued(w);
  });

  it.each([
    ['from another origin', { origin: 'https://evil.example' }],
    ['for another RP ID', { rpId: 'evil.example' }],
    ['without user verification (alone, it must verify)', { userVerified: false }],
    ['without user presence', { userPresent: false, userVerified: false }],
    ['with a tampered signature', { tamperSignature: true }],
  ] as [string, Partial<SoftGetOptions>][])('refuses an answer %s: a wrong guess', async (_n, o) => {
    const w = await world();
    await notAccepted(w.signIn(await w.answer('u1@example.com', null, o)));
    expect(w.guessing.attempt).toHaveBeenCalledWith('u1', 'webauthn', expect.any(Function), AS_U1);
    expect(await w.guessing.attempt.mock.results[0].value).toBe('wrong');
    expect(w.repo.flag).not.toHaveBeenCalled();
    nothingIssued(w);
  });

  it('refuses a valid assertion while the account is locked against guessing', async () => {
    const w = await world();
    w.guessing.attempt.mockResolvedValueOnce('locked');
    await notAccepted(w.signIn(await w.answer('u1@example.com', null)));
    nothingIssued(w);
  });

  it('refuses the loser of the counter’s compare-and-set (a raced replay), recording no use', async () => {
    const w = await world();
    w.repo.recordUse.mockResolvedValueOnce(false);
    await notAccepted(w.signIn(await w.answer('u1@example.com', null)));
    expect(w.repo.recordUse).toHaveBeenCalledTimes(1);
    for (const f of [w.audit.record, w.events.record, w.signIns.passkeySignIn])
      expect(f).not.toHaveBeenCalled();
  });
});

describe('PasskeySignIn.completeSecondFactor (the step after a password)', () => {
  it('uses up the temporary token, completes the sign-in with its tenant’s mark and ceiling', async () => {
    const w = await world();
    const strict = domain({ mfa_required: true, mfa_methods: ['WEBAUTHN'] });
    w.repo.liveMemberDomain.mockResolvedValueOnce(strict);
    // user presence is enough for a second factor, in a domain that requires one and counts passkeys
    const answered = await w.answer(null, pendingOf(), { userVerified: false, userHandle: null });
    const out = await w.complete(answered);
    expect(w.repo.liveMemberDomain).toHaveBeenCalledWith('u1', 'd1');
    expect(w.tokens.revoke).toHaveBeenCalledWith('t1', { em: EM, requestId: 'r-temp' });
    const user = { userId: 'u1', domainId: 'd1' };
    const pending = { vouchedByTenant: true, rightsCap: ['admin'] };
    expect(w.signIns.completeSecondFactor).toHaveBeenCalledWith(EM, user, pending, REQUEST, AFTER_PWD);
    expect(w.repo.touchLastLogin).toHaveBeenCalledWith(EM, 'u1', NOW);
    expect(w.tokens.isDomainAdmin).toHaveBeenCalledWith('u1', 'd1');
    const rights = { is_admin: true, system_domains: ['d1', 'd2'], expires: wireDate(NOW) };
    expect(out).toMatchObject({ token: 'domain-jwt', ...ISSUED, ...rights });
    const details = { webauthn_id: 'p1', second_factor: true };
    expect(w.audit.record).toHaveBeenCalledWith(EM, AS_U1, expect.objectContaining({ details }));
    expect([w.signIns.passkeySignIn.mock.calls, w.audit.recordAlone.mock.calls]).toEqual([[], []]);
  });

  it('a sign-in of the service’s (no tenant, no ceiling) stays so; the chosen domain completes', async () => {
    const w = await world();
    const pending = pendingOf('u1', 't1', { record: { vouched_by_tenant: false }, rightsCap: null });
    await w.complete(await w.answer(null, pending), pending, 'd2');
    expect(w.repo.liveMemberDomain).toHaveBeenCalledWith('u1', 'd2');
    const user = { userId: 'u1', domainId: 'd2' };
    const cap = { vouchedByTenant: false, rightsCap: null };
    expect(w.signIns.completeSecondFactor).toHaveBeenCalledWith(EM, user, cap, REQUEST, AFTER_PWD);
  });

  it.each([
    ['requires a factor and does not count passkeys', domain({ mfa_required: true, mfa_methods: ['TOTP'] })],
    ['is not a live domain of the user', null],
  ])('refuses a domain that %s (domain_policy)', async (_n, d) => {
    const w = await world();
    w.repo.liveMemberDomain.mockResolvedValueOnce(d);
    const pending = pendingOf('u1', 't1', { user: person('u1') });
    await notAccepted(w.complete(await w.answer(null, pending), pending));
    // judged before the assertion: nothing verified, no passkey named, no use recorded
    refusedOnRecord(w, 'domain_policy', 'u1', false);
    expect([w.tokens.revoke.mock.calls, w.signIns.completeSecondFactor.mock.calls]).toEqual([[], []]);
    expect([w.repo.claimChallenge.mock.calls, w.repo.recordUse.mock.calls]).toEqual([[], []]);
  });

  it('refuses a second completion with the same temporary token (already revoked)', async () => {
    const w = await world();
    w.tokens.revoke.mockResolvedValueOnce(false);
    await notAccepted(w.complete(await w.answer(null, pendingOf())));
    expect(w.tokens.revoke).toHaveBeenCalledTimes(1);
    expect([w.signIns.completeSecondFactor.mock.calls, w.repo.touchLastLogin.mock.calls]).toEqual([[], []]);
  });
});
