// A person's passkeys (PasskeysService) over a fake repository whose challenges behave as the table does
// (single use, per ceremony, until they expire), with real registrations from a software authenticator.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it, jest } from '@jest/globals';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  fixedClock,
  memberContext,
  repoWithTransaction,
  resolves,
  uniqueViolation,
  wire,
} from '../../../test/utils/fakes.js';
import type { CallerFields } from '../../../test/utils/fakes.js';
import { SoftAuthenticator, type SoftCreateOptions } from '../../../test/utils/soft-authenticator.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import type { PasskeyEntity } from '../../base/model/passkey.entity.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { PasskeyRegistrationDto } from './dto/passkeys.dto.js';
import { passkeyView, PasskeysService } from './passkeys.service.js';
import { creationOptions, requestOptions, verifyAssertion } from './webauthn.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { challengeStore, ORIGIN, PASSKEYS_CONFIG as CONFIG } from '../../../test/utils/fakes/passkeys.js';

const EM = { em: 'passkeys' };
const HANDLE = randomBytes(32).toString('base64url');
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
type Found = PasskeyEntity | null;

const KEY = {
  credential_id: 'Y3JlZC0x',
  public_key: Buffer.alloc(0),
  counter: '0',
  transports: ['internal'],
};
const MODEL = { aaguid: null, device_type: 'singleDevice', backed_up: false, name: 'Phone' };
const DATES = { date_created: NOW, last_used: null, flagged_at: null };
/** A stored passkey, p1 of u1 unless told. */
const passkey = (over: Partial<PasskeyEntity> = {}) =>
  ({ id: 'p1', user_id: 'u1', ...KEY, ...MODEL, ...DATES, ...over }) as PasskeyEntity;
const NAMES = { first_name: 'Ada', last_name: 'Lovelace', is_super_admin: false };
const person = (over: Partial<UserEntity> = {}) =>
  ({ id: 'u1', email: 'ada@example.com', ...NAMES, system_domain_id: 'd1', ...over }) as UserEntity;
/** The caller: user u1 of domain d1, signed in (LOGIN) with app1, no administrator, the given fields over. */
const caller = (over: CallerFields = {}) =>
  memberContext({ appId: 'app1', kind: 'LOGIN', user: person(), ...over });

function setup() {
  const { challenges, ...challengeMethods } = challengeStore();
  const insert = async (_em: unknown, row: Partial<PasskeyEntity>) => passkey({ id: 'p-new', ...row });
  const rename = async (_u: string, id: string, name: string): Promise<Found> => passkey({ id, name });
  const remove = async (_em: unknown, user_id: string, id: string): Promise<Found> =>
    passkey({ id, user_id });
  const user = async (by: { id: string }): Promise<UserEntity | null> =>
    person({ id: by.id, email: `${by.id}@example.com` });
  const repo = repoWithTransaction(EM, {
    userHandle: jest.fn(async (_userId: string, _fresh: string) => HANDLE),
    list: jest.fn(async (_userId: string): Promise<PasskeyEntity[]> => []),
    ...challengeMethods,
    insert: jest.fn(insert),
    ...{ rename: jest.fn(rename), remove: jest.fn(remove), user: jest.fn(user) },
    domainIds: jest.fn(async (_userId: string) => ['d1']),
  });
  const [audit, events] = [{ record: resolves(undefined) }, { record: resolves(undefined) }];
  const mail = { queue: resolves(undefined) };
  const args = [repo, CONFIG, fixedClock(NOW), audit, events, mail];
  const service = new PasskeysService(...(args as unknown as ConstructorParameters<typeof PasskeysService>));
  return { service, repo, audit, events, mail, challenges };
}
type Setup = ReturnType<typeof setup>;

/** The body of a registration: `response` (a soft authenticator's answer), named `name`. */
const body = (response: RegistrationResponseJSON, name?: string) =>
  ({ name, response }) as unknown as PasskeyRegistrationDto;

/** Options for `auth` from the service, answered by a new soft authenticator (misbehaving as `o` says). */
async function answered(s: Setup, auth = caller(), o: Partial<SoftCreateOptions> = {}) {
  const options = await s.service.registrationOptions(auth);
  const authenticator = new SoftAuthenticator();
  return {
    options,
    authenticator,
    response: authenticator.create(options as never, { origin: ORIGIN, ...o }),
  };
}

/** What the client gets for `p`'s error. */
const answerOf = async (p: Promise<unknown>) => wire(await p.catch((e: unknown) => e));
const REFUSED = { status: 400, code: 'passkeys.REGISTRATION_REFUSED' };
const NOT_FOUND = { status: 404, code: 'passkeys.NOT_FOUND' };
const audited = (fields: object) => expect.objectContaining(fields);

describe('PasskeysService.registrationOptions', () => {
  it('hands out creation options, their challenge bound to the caller, for registration, 5 minutes', async () => {
    const s = setup();
    const options = await s.service.registrationOptions(caller());
    const bound = { ceremony: 'registration', user_id: 'u1', temp_token_id: null, require_uv: false };
    const expires = new Date(NOW.getTime() + 5 * 60_000);
    const row = { challenge_sha256: sha256(options.challenge), ...bound, expires };
    expect(s.repo.issueChallenge.mock.calls).toEqual([[row, NOW]]);
    expect(options.rp).toEqual({ id: 'localhost', name: 'Portcullis' });
    expect(options.user).toEqual({ id: HANDLE, name: 'ada@example.com', displayName: 'Ada Lovelace' });
    expect(options.attestation).toBe('none');
  });

  it('names the account by its handle (a fresh random one offered), excludes its passkeys', async () => {
    const s = setup();
    s.repo.list.mockResolvedValueOnce([passkey({ credential_id: 'a2V5LTE', transports: ['usb'] })]);
    const options = await s.service.registrationOptions(caller());
    expect(s.repo.userHandle).toHaveBeenCalledWith('u1', expect.stringMatching(/^[A-Za-z0-9_-]{43}$/));
    await s.service.registrationOptions(caller());
    const [first, second] = s.repo.userHandle.mock.calls.map((c) => c[1]);
    expect(second).not.toBe(first);
    expect(s.repo.list).toHaveBeenCalledWith('u1');
    expect(options.excludeCredentials).toEqual([{ id: 'a2V5LTE', type: 'public-key', transports: ['usb'] }]);
  });

  it('a person without a name is shown by their email', async () => {
    const s = setup();
    const nameless = caller({ user: person({ first_name: null, last_name: '' }) });
    expect((await s.service.registrationOptions(nameless)).user.displayName).toBe('ada@example.com');
    const first = await s.service.registrationOptions(caller({ user: person({ last_name: null }) }));
    expect(first.user.displayName).toBe('Ada');
  });
});

describe('PasskeysService.register', () => {
  it('keeps the verified passkey, on record: audit, webhook event (create), mail, one transaction', async () => {
    const s = setup();
    const { response } = await answered(s);
    const out = await s.service.register(caller(), body(response, '  My phone  '));
    const attested = { credential_id: response.id, public_key: expect.any(Buffer), counter: '0' };
    const model = { aaguid: '00000000-0000-0000-0000-000000000000', device_type: 'singleDevice' };
    const row = {
      user_id: 'u1',
      ...attested,
      transports: ['internal', 'hybrid'],
      ...model,
      backed_up: false,
    };
    expect(s.repo.insert).toHaveBeenCalledWith(EM, { ...row, name: 'My phone' });
    expect(out).toEqual(passkeyView(passkey({ id: 'p-new', ...s.repo.insert.mock.calls[0][1] })));
    expect(out).not.toHaveProperty('public_key');
    expect(out).not.toHaveProperty('credential_id');
    const origin = {
      actorUserId: 'u1',
      actorAppId: 'app1',
      actorKind: 'LOGIN',
      requestId: 'r1',
      clientAddress: null,
    };
    const target = { systemDomainId: 'd1', targetType: 'user', targetId: 'u1', outcome: 'success' };
    const details = { webauthn_id: 'p-new', name: 'My phone' };
    expect(s.audit.record).toHaveBeenCalledWith(EM, origin, {
      action: 'passkey.registered',
      ...target,
      details,
    });
    const event = { eventType: 'users', realm: 'webauthn', operation: 'create', objectId: 'u1' };
    const more = { data: { passkey: out }, requestId: 'r1', systemDomainId: 'd1' };
    expect(s.events.record).toHaveBeenCalledWith(EM, { ...event, ...more });
    expect(s.mail.queue).toHaveBeenCalledWith(EM, audited({ kind: 'passkey_added', to: 'ada@example.com' }));
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
  });

  it('keeps what was attested: the stored key verifies its assertions; no name is “Passkey”', async () => {
    const s = setup();
    const { response, authenticator } = await answered(s);
    await s.service.register(caller(), body(response, '   '));
    const kept = s.repo.insert.mock.calls[0][1];
    expect(kept.name).toBe('Passkey');
    const options = await requestOptions(CONFIG, [], 'required');
    const assertion = authenticator.get(options, { origin: ORIGIN });
    const stored = { credential_id: kept.credential_id!, public_key: kept.public_key!, transports: [] };
    const verdict = await verifyAssertion(CONFIG, assertion, options.challenge, stored, true);
    expect(verdict).toEqual({ counter: 1, userVerified: true });
  });

  it('uses a challenge once: the same answer again is refused', async () => {
    const s = setup();
    const { response } = await answered(s);
    await s.service.register(caller(), body(response));
    expect(await answerOf(s.service.register(caller(), body(response)))).toMatchObject(REFUSED);
    expect(s.repo.insert).toHaveBeenCalledTimes(1);
  });

  const stranger = async () => {
    const user = { handle: HANDLE, email: 'a@b.c', displayName: 'A' };
    return new SoftAuthenticator().create(await creationOptions(CONFIG, user, []), { origin: ORIGIN });
  };
  const lastRow = (s: Setup) => [...s.challenges.values()].at(-1)!;
  const noChallenge = Buffer.from('{"type":"webauthn.create"}').toString('base64url');
  it.each([
    ['a challenge never handed out', async () => stranger()],
    ['another user’s challenge', async (s: Setup) => (await answered(s, caller({ userId: 'u2' }))).response],
    ['an expired challenge', async (s: Setup) => (await answered(s)).response],
    ['a challenge of the sign-in ceremony', async (s: Setup) => (await answered(s)).response],
    ['client data without a challenge', async (s: Setup) => (await answered(s)).response],
  ])('refuses %s (400, a response field), before verifying or storing', async (name, make) => {
    const s = setup();
    const response = await make(s);
    if (name.startsWith('an expired')) lastRow(s).expires = NOW;
    if (name.includes('sign-in')) lastRow(s).ceremony = 'authentication';
    if (name.startsWith('client data')) response.response.clientDataJSON = noChallenge;
    const why = 'Unknown, used or expired challenge: ask for new registration options';
    expect(await answerOf(s.service.register(caller(), body(response)))).toEqual({
      ...REFUSED,
      errors: { response: why },
    });
    expect([s.repo.insert.mock.calls, s.audit.record.mock.calls]).toEqual([[], []]);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }, /origin/i],
    ['another RP ID', { rpId: 'evil.example' }, /RP ID/i],
    ['a sign-in instead of a creation', { type: 'webauthn.get' }, /type/i],
  ])(
    'refuses an attestation from %s, with the verifier’s reason in the response field',
    async (_n, o, why) => {
      const s = setup();
      const { response } = await answered(s, caller(), o);
      const refused = { ...REFUSED, errors: { response: expect.stringMatching(why) } };
      expect(await answerOf(s.service.register(caller(), body(response)))).toEqual(refused);
      expect(s.repo.insert).not.toHaveBeenCalled();
    },
  );

  it('a passkey registered before is a 409, and nothing is on record', async () => {
    const s = setup();
    s.repo.insert.mockRejectedValueOnce(uniqueViolation());
    const { response } = await answered(s);
    const conflict = { status: 409, code: 'passkeys.ALREADY_REGISTERED' };
    expect(await answerOf(s.service.register(caller(), body(response)))).toMatchObject(conflict);
    expect([s.audit.record.mock.calls, s.mail.queue.mock.calls]).toEqual([[], []]);
  });

  it('another failure of the insert is passed on as it is', async () => {
    const s = setup();
    const boom = new Error('connection lost');
    s.repo.insert.mockRejectedValueOnce(boom);
    const { response } = await answered(s);
    await expect(s.service.register(caller(), body(response))).rejects.toBe(boom);
  });
});

describe('PasskeysService.rename, remove and list (the caller’s own)', () => {
  it('renames (trimmed): audited and told (update), not mailed', async () => {
    const s = setup();
    expect(await s.service.rename(caller(), 'p1', '  Laptop ')).toMatchObject({ id: 'p1', name: 'Laptop' });
    expect(s.repo.rename).toHaveBeenCalledWith('u1', 'p1', 'Laptop');
    const details = { webauthn_id: 'p1', name: 'Laptop' };
    expect(s.audit.record).toHaveBeenCalledWith(
      EM,
      expect.anything(),
      audited({ action: 'passkey.renamed', details }),
    );
    expect(s.events.record).toHaveBeenCalledWith(EM, audited({ operation: 'update' }));
    expect(s.mail.queue).not.toHaveBeenCalled();
  });

  it('a blank name (spaces only) is a 400, nothing renamed', async () => {
    const s = setup();
    await expect(s.service.rename(caller(), 'p1', '   ')).rejects.toMatchObject({ status: 400 });
    expect(s.repo.rename).not.toHaveBeenCalled();
  });

  it('removes: audited, told (delete) and mailed to the caller', async () => {
    const s = setup();
    await s.service.remove(caller(), 'p1');
    expect(s.repo.remove).toHaveBeenCalledWith(EM, 'u1', 'p1');
    const removed = audited({ action: 'passkey.removed', targetId: 'u1' });
    expect(s.audit.record).toHaveBeenCalledWith(EM, expect.anything(), removed);
    expect(s.events.record).toHaveBeenCalledWith(EM, audited({ operation: 'delete' }));
    expect(s.mail.queue).toHaveBeenCalledWith(
      EM,
      audited({ kind: 'passkey_removed', to: 'ada@example.com' }),
    );
  });

  it('renaming or removing a passkey not the caller’s (or none) is a 404, with nothing on record', async () => {
    const s = setup();
    s.repo.rename.mockResolvedValueOnce(null);
    s.repo.remove.mockResolvedValueOnce(null);
    expect(await answerOf(s.service.rename(caller(), 'p9', 'x'))).toMatchObject(NOT_FOUND);
    expect(await answerOf(s.service.remove(caller(), 'p9'))).toMatchObject(NOT_FOUND);
    for (const f of [s.audit.record, s.events.record, s.mail.queue]) expect(f).not.toHaveBeenCalled();
  });

  it('lists the caller’s passkeys in their API form: wire dates, never the key or credential id', async () => {
    const s = setup();
    const rows = [passkey(), passkey({ id: 'p2', flagged_at: NOW, last_used: NOW })];
    s.repo.list.mockResolvedValueOnce(rows);
    expect(await s.service.list('u1')).toEqual(rows.map(passkeyView));
    const dates = { date_created: wireDate(NOW), last_used: wireDate(NOW), flagged_at: wireDate(NOW) };
    expect(passkeyView(rows[1])).toEqual({ id: 'p2', transports: ['internal'], ...MODEL, ...dates });
    expect(passkeyView(rows[0])).toMatchObject({ last_used: null, flagged_at: null });
  });
});

describe('PasskeysService.listFor and removeFor (an administrator’s)', () => {
  const admin = (over: CallerFields = {}) => caller({ userId: 'a1', isAdmin: true, ...over });
  const SUPER = { isSuperAdmin: true };

  it('a user outside the caller’s domain does not exist (404), and is not read', async () => {
    const s = setup();
    s.repo.domainIds.mockResolvedValue(['d2']);
    expect(await answerOf(s.service.listFor(admin(), 'u2'))).toMatchObject(NOT_FOUND);
    expect(await answerOf(s.service.removeFor(admin(SUPER), 'u2', 'p1'))).toMatchObject(NOT_FOUND);
    expect([s.repo.user.mock.calls, s.repo.remove.mock.calls]).toEqual([[], []]);
  });

  it('a member that no longer exists is a 404', async () => {
    const s = setup();
    s.repo.user.mockResolvedValueOnce(null);
    expect(await answerOf(s.service.listFor(admin(), 'u2'))).toMatchObject(NOT_FOUND);
  });

  it('lists a member’s passkeys', async () => {
    const s = setup();
    s.repo.list.mockResolvedValueOnce([passkey({ user_id: 'u2' })]);
    expect(await s.service.listFor(admin(), 'u2')).toEqual([passkeyView(passkey({ user_id: 'u2' }))]);
    expect(s.repo.list).toHaveBeenCalledWith('u2');
  });

  it.each([
    ['a non-administrator', caller({ userId: 'a1' }), ['d1'], false, 'ADMIN_ONLY'],
    ['an administrator, for a super administrator', admin(), ['d1'], true, 'SUPER_ADMIN_RANK'],
    ['an administrator, for a user of other domains too', admin(), ['d1', 'd2'], false, 'SHARED_ACCOUNT'],
    [
      'a non-administrator, for a super administrator',
      caller({ userId: 'a1' }),
      ['d1'],
      true,
      'SUPER_ADMIN_RANK',
    ],
  ] as const)('refuses %s (403)', async (_n, auth, domains, targetSuper, code) => {
    const s = setup();
    s.repo.domainIds.mockResolvedValue([...domains]);
    s.repo.user.mockResolvedValue(person({ id: 'u2', email: 'u2@example.com', is_super_admin: targetSuper }));
    const answer = await answerOf(s.service.removeFor(auth, 'u2', 'p1'));
    expect(answer).toMatchObject({ status: 403, code: `passkeys.${code}` });
    expect([s.repo.remove.mock.calls, s.audit.record.mock.calls]).toEqual([[], []]);
  });

  it.each([
    ['an administrator of the user’s only domain', admin(), ['d1'], false],
    ['a super administrator, for a user of several domains', admin(SUPER), ['d1', 'd2'], false],
    ['a super administrator, for another super administrator', admin(SUPER), ['d1'], true],
    [
      'a super administrator not the domain’s administrator',
      caller({ userId: 'a1', ...SUPER }),
      ['d1', 'd3'],
      true,
    ],
  ] as const)('lets %s remove it: on record for the user, mailed to them', async (_n, auth, domains, sup) => {
    const s = setup();
    s.repo.domainIds.mockResolvedValue([...domains]);
    s.repo.user.mockResolvedValue(person({ id: 'u2', email: 'u2@example.com', is_super_admin: sup }));
    await s.service.removeFor(auth, 'u2', 'p1');
    expect(s.repo.remove).toHaveBeenCalledWith(EM, 'u2', 'p1');
    const removed = audited({ action: 'passkey.removed', targetId: 'u2', systemDomainId: 'd1' });
    expect(s.audit.record).toHaveBeenCalledWith(EM, audited({ actorUserId: 'a1' }), removed);
    const event = { operation: 'delete', objectId: 'u2', realm: 'webauthn' };
    expect(s.events.record).toHaveBeenCalledWith(EM, audited(event));
    expect(s.mail.queue).toHaveBeenCalledWith(EM, audited({ kind: 'passkey_removed', to: 'u2@example.com' }));
  });

  it('removing a passkey the user does not have is a 404', async () => {
    const s = setup();
    s.repo.remove.mockResolvedValueOnce(null);
    expect(await answerOf(s.service.removeFor(admin(), 'u2', 'p9'))).toMatchObject(NOT_FOUND);
    expect(s.mail.queue).not.toHaveBeenCalled();
  });
});
