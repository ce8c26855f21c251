import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { Clock } from '../../src/base/common/clock.js';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import {
  expectFactorEnrolment,
  expectPasswordChange,
  STRONG,
  TOTP_CONFIGURE,
} from '../utils/account-change-cells.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { directoryWorld, type DirectoryWorld } from '../utils/directory-world.js';
import { oidcWorld, type OidcWorld } from '../utils/oidc-world.js';
import { describeWithLdap, type Slapd, startSlapd } from '../utils/slapd.js';

/**
 * The sign-in authority's matrix (test/e2e/sign-in-authority.e2e-spec.ts) for the two tenant authenticators of
 * issue 39 (docs/federated-login.md): a domain's company directory and its external OpenID provider, against a
 * real slapd and a real oidc-provider. Each person's email is at an email domain bound to the authenticator and
 * verified, and no links exist for these authenticators, so only the ownership rules decide: the tenant
 * vouches for the accounts it owns, nothing else, and its sessions are marked as the tenant's.
 */
type Authn = 'tenant directory' | 'tenant OpenID provider';
type Account =
  | 'owned by the authenticator’s domain'
  | 'shared with another domain'
  | 'super administrator'
  | 'deactivated'
  | 'member of another tenant only';
type Verdict = 'ok' | 'refused';

const OWNED: Account = 'owned by the authenticator’s domain';
const ACCOUNTS: Account[] = [
  OWNED,
  'shared with another domain',
  'super administrator',
  'deactivated',
  'member of another tenant only',
];
/** Sign-in verdicts: the same row for both, that of the SAML 'tenant IdP, unlinked'. */
const SIGN_IN: Record<Authn, Record<Account, Verdict>> = {
  'tenant directory': row('ok', 'refused', 'refused', 'refused', 'refused'),
  'tenant OpenID provider': row('ok', 'refused', 'refused', 'refused', 'refused'),
};
/** Both are a tenant's: account changes only on what the tenant owns (as the existing matrix's CHANGE). */
const CHANGE = (_a: Authn, acc: Account): Verdict => (acc === OWNED ? 'ok' : 'refused');
/** The authority's reason on the audit trail for each refusal: the rule that decided, not a routing miss. */
const REFUSAL: Record<Account, RegExp | null> = {
  [OWNED]: null,
  'shared with another domain': /not this domain’s alone/,
  'super administrator': /not this domain’s alone/,
  deactivated: /not active/,
  'member of another tenant only': /not a member of the authenticator’s domain/,
};

function row(...v: Verdict[]): Record<Account, Verdict> {
  return Object.fromEntries(ACCOUNTS.map((a, i) => [a, v[i]])) as Record<Account, Verdict>;
}

const MULTI = '/API/auth/v1/auth/multidomain/login/';
const TOTP_VALIDATE = '/API/users/v1/users/current/totp/validate_configuration/';
const JOIN = 'INSERT INTO user_system_domains (user_id, system_domain_id, is_admin) VALUES ($1, $2, false)';
const INVALID = { errors: ['Invalid email or password'] };

type Session = { token: string; body: Record<string, any> };
type Outcome = { session: Session | null; requestId: string };

/** One tenant authenticator as the matrix drives it. */
interface Tenant {
  domainId: string;
  emailDomain: string;
  /** The person with this address, known to the authenticator (a directory entry, an account at the provider). */
  register(email: string): Promise<void>;
  /** Signs in through the authenticator: the session, or null when refused (the only refusal answer is 401). */
  signIn(email: string): Promise<Outcome>;
}

describe('the sign-in authority, federated: tenant directory and OpenID provider × account × action', () => {
  let t: TestApp;
  let other: string;
  const tenants = {} as Record<Authn, Tenant>;

  beforeAll(async () => {
    t = await createTestApp();
    other = (await createDomain(t)).id;
  });
  afterAll(() => t?.close());

  const vouched = async (tokenId: string): Promise<boolean> =>
    (await t.ds.query('SELECT vouched_by_tenant FROM tokens WHERE id = $1', [tokenId]))[0]?.vouched_by_tenant;
  const refusalsOf = (requestId: string): Promise<{ details: { reason?: string } }[]> =>
    t.ds.query(
      "SELECT details FROM audit_events WHERE request_id = $1 AND action = 'signin.failure' AND target_type IN ('directory', 'oidc_provider')",
      [requestId],
    );

  /**
   * A fresh account of the kind, at the authenticator's verified email domain and known to it, with
   * `can_write_users` in each of its domains (as the existing matrix gives it), so that what decides a change
   * is the authority, not a missing role.
   */
  async function account(a: Authn, kind: Account): Promise<UserEntity> {
    const tenant = tenants[a];
    const email = `p-${randomUUID().slice(0, 8)}@${tenant.emailDomain}`;
    await tenant.register(email);
    const d = tenant.domainId;
    const user = await {
      [OWNED]: () => createUser(t, { domainId: d, email }),
      'shared with another domain': () => createUser(t, { domainId: other, alsoIn: [d], email }),
      'super administrator': () => createUser(t, { domainId: d, isSuperAdmin: true, email }),
      deactivated: () => createUser(t, { domainId: d, status: 'INACTIVE', email }),
      'member of another tenant only': () => createUser(t, { domainId: other, email }),
    }[kind]();
    for (const domainId of [d, other]) {
      const group = await t.ds.getRepository(GroupEntity).save({
        system_domain_id: domainId,
        name: `g-${randomUUID().slice(0, 8)}`,
        roles: ['can_write_users'],
      });
      await t.ds.getRepository(GroupMemberEntity).insert({ group_id: group.id, user_id: user.id });
    }
    return user;
  }

  /** The cells of one authenticator's row: sign in, change password, enrol a factor. */
  function matrix(a: Authn): void {
    for (const acc of ACCOUNTS) {
      const expected = SIGN_IN[a][acc];
      describe(`${a} × ${acc}`, () => {
        it(`sign in: ${expected}`, async () => {
          const tenant = tenants[a];
          const user = await account(a, acc);
          const { session, requestId } = await tenant.signIn(user.email);
          expect(session ? 'ok' : 'refused').toBe(expected);
          if (!session) {
            const reasons = (await refusalsOf(requestId)).map((r) => r.details.reason);
            expect(reasons).toEqual([expect.stringMatching(REFUSAL[acc]!)]);
            return;
          }
          // a tenant's session: that domain only, never a second factor, never a super administrator's power
          expect(session.body.user_id).toBe(user.id);
          expect(session.body.is_mfa_authenticated).toBe(false);
          expect(session.body.is_super_admin).toBe(false);
          expect(session.body.auth_system_domains).toHaveLength(1);
          const validated = await t.http
            .get('/API/auth/v1/auth/token/')
            .set(bearer(session.token))
            .expect(200);
          expect(validated.body.system_domain_id).toBe(tenant.domainId);
          // marked as the tenant's on its token record
          expect(await vouched(session.body.id)).toBe(true);
          if (acc === 'super administrator')
            await t.http.get('/API/auth/v1/referral_codes/').set(bearer(session.token)).expect(403);
        });

        if (expected === 'ok') {
          const change = CHANGE(a, acc);
          it(`change password: ${change}`, async () => {
            const user = await account(a, acc);
            const session = (await tenants[a].signIn(user.email)).session!;
            await expectPasswordChange(t, session.token, user.email, change);
          });

          it(`enrol a factor: ${change}`, async () => {
            const user = await account(a, acc);
            const session = (await tenants[a].signIn(user.email)).session!;
            await expectFactorEnrolment(t, session.token, change);
          });
        }
      });
    }
  }

  describeWithLdap('tenant directory', () => {
    let slapd: Slapd;
    let w: DirectoryWorld;
    const passwords = new Map<string, string>();

    /** The directory's sign-in for a world's person: 201 the session, 401 refused, anything else fails. */
    async function directorySignIn(d: DirectoryWorld, email: string): Promise<Outcome> {
      const res = await d.login(email, passwords.get(email)!);
      const requestId = res.headers['x-request-id'] as string;
      if (res.status !== 201) {
        expect([res.status, res.body]).toEqual([401, INVALID]);
        return { session: null, requestId };
      }
      return { session: { token: res.body.token, body: res.body }, requestId };
    }
    const register = (d: DirectoryWorld) => async (email: string) => {
      const person = await d.addPerson({ local: email.slice(0, email.indexOf('@')) });
      expect(person.email).toBe(email);
      passwords.set(email, person.password);
    };

    beforeAll(async () => {
      slapd = await startSlapd();
      w = await directoryWorld(t, slapd, { label: 'authority' });
      tenants['tenant directory'] = {
        domainId: w.domainId,
        emailDomain: w.emailDomain,
        register: register(w),
        signIn: (email) => directorySignIn(w, email),
      };
    });
    afterAll(() => slapd?.stop());

    matrix('tenant directory');

    it('a domain that requires a factor: the service’s TOTP completes the temporary token to a session second-factor authenticated and still the tenant’s, and renewing it keeps the mark', async () => {
      const clock = t.get(Clock);
      const code = (secret: string) =>
        new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
      const m = await directoryWorld(t, slapd, { label: 'mfa', domain: { mfa_required: true } });
      const email = m.email(`p-${randomUUID().slice(0, 8)}`);
      await register(m)(email);
      const user = await createUser(t, { domainId: m.domainId, email, roles: ['can_write_users'] });
      // the factor, enrolled from a session of the service's own
      const own = bearer((await tokenFor(t, user, { domainId: m.domainId })).token);
      const started = await t.http.post(TOTP_CONFIGURE).set(own).expect(201);
      await t.http
        .post(TOTP_VALIDATE)
        .set(own)
        .send({ otp: code(started.body.secret) })
        .expect(200);
      try {
        clock.advance(30_000); // the next time step: the code used to confirm is spent
        const first = await m.login(email, passwords.get(email)!).expect(201);
        expect(first.body).toMatchObject({ token: null, temp_token: expect.any(String) });
        const done = await t.http
          .post(MULTI)
          .set({ 'Temp-Auth-Token': first.body.temp_token })
          .send({ email, system_domain_id: m.domainId, otp: code(started.body.secret), otp_type: 'TOTP' })
          .expect(201);
        expect(done.body).toMatchObject({
          token: expect.any(String),
          user_id: user.id,
          system_domain_id: m.domainId,
          is_mfa_authenticated: true,
        });
        expect(await vouched(done.body.id)).toBe(true);
        const renewed = await t.http
          .post('/API/auth/v1/auth/token/')
          .set(bearer(done.body.token))
          .expect(201);
        expect(renewed.body.is_mfa_authenticated).toBe(true);
        expect(await vouched(renewed.body.id)).toBe(true);
        // the mark at work: once the account is not the domain's alone, the renewed session changes nothing
        // (a second-factor session of the service's own would), while the person's own sign-in still may
        await t.ds.query(JOIN, [user.id, other]);
        const refused = await t.http
          .patch('/API/users/v1/users/current/')
          .set(bearer(renewed.body.token))
          .send({ password: STRONG() })
          .expect(403);
        expect(refused.body.errors[0]).toMatch(/single sign-on cannot change this account/);
        const service = bearer((await tokenFor(t, user, { domainId: m.domainId })).token);
        await t.http
          .patch('/API/users/v1/users/current/')
          .set(service)
          .send({ password: STRONG() })
          .expect(200);
      } finally {
        clock.reset();
      }
    });

    it.each([
      ['its status is DEACTIVATED', { status: 'DEACTIVATED' as const }],
      ['its deactivate_date has passed', { deactivate_date: new Date(Date.now() - 1000) }],
    ])('a directory whose domain is deactivated (%s) signs no one in', async (_what, fields) => {
      const d = await directoryWorld(t, slapd, { label: 'gone', settings: { jit_provisioning: true } });
      const email = d.email(`p-${randomUUID().slice(0, 8)}`);
      const newcomer = d.email(`new-${randomUUID().slice(0, 8)}`);
      await register(d)(email);
      await register(d)(newcomer);
      const user = await createUser(t, { domainId: d.domainId, email });
      // the control: while the domain is live, the directory signs the owned account in
      expect((await directorySignIn(d, email)).session?.body.user_id).toBe(user.id);
      await t.ds.getRepository(SystemDomainEntity).update({ id: d.domainId }, fields);
      const named = { system_domain_id: d.domainId };
      for (const address of [email, newcomer]) {
        await d.login(address, passwords.get(address)!).expect(401, INVALID);
        await d.login(address, passwords.get(address)!, named).expect(401, INVALID);
      }
      // nor is anyone provisioned just in time into it
      expect(await t.ds.getRepository(UserEntity).findOneBy({ email: newcomer })).toBeNull();
    });
  });

  describe('tenant OpenID provider', () => {
    let w: OidcWorld;

    /** Start, the provider's login, our callback, the exchange: the session, or null at a 401 of either. */
    async function oidcSignIn(email: string): Promise<Outcome> {
      const back = await w.signIn(email);
      if (back.status !== 302) {
        expect(back.status).toBe(401);
        return { session: null, requestId: back.requestId };
      }
      const res = await w.exchange(back.code!);
      const requestId = res.headers['x-request-id'] as string;
      if (res.status !== 201) {
        expect(res.status).toBe(401);
        return { session: null, requestId };
      }
      return { session: { token: res.body.token, body: res.body }, requestId };
    }

    beforeAll(async () => {
      w = await oidcWorld(t);
      tenants['tenant OpenID provider'] = {
        domainId: w.domainId,
        emailDomain: w.emailDomain,
        register: async (email) => void w.person({ email }),
        signIn: oidcSignIn,
      };
    });
    afterAll(() => w?.stop());

    matrix('tenant OpenID provider');

    it('a code issued while the domain owned the account is refused at the exchange once the account joined another domain', async () => {
      const user = await account('tenant OpenID provider', OWNED);
      const before = await w.signIn(user.email);
      const meanwhile = await w.signIn(user.email);
      expect([before.status, meanwhile.status]).toEqual([302, 302]);
      // the control: a code of the same account exchanged while the domain still owns it
      expect((await w.token(before)).user_id).toBe(user.id);
      await t.ds.query(JOIN, [user.id, other]);
      const res = await w.exchange(meanwhile.code!);
      expect(res.status).toBe(401);
      expect(res.body.token).toBeUndefined();
      // one session only: the exchange that was refused minted none
      expect(await w.successes(user.id)).toHaveLength(1);
    });
  });
});
