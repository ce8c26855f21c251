import { randomUUID } from 'node:crypto';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { bearer, login } from '../utils/auth.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';

const AUTH = '/API/auth/v1';
const USERS = '/API/users/v1';

/**
 * A newcomer's whole way in, through the public API only: register → verification mail → verify (a domain of
 * their own, built from the operator's template, and an automatic sign-in) → invite a colleague → the colleague
 * accepts → both sign in with their passwords. Then the operator's side of the same tenant: the status set by a
 * super administrator holds on the very next request.
 */
describe('newcomer journey', () => {
  let t: TestApp;
  let operator: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    operator = bearer(await login(t, ADMIN_EMAIL, ADMIN_PASSWORD));
  });
  afterAll(() => t.close());

  it('register → mail → verify → auto-login → invite → accept → both sign in; the operator freezes and deactivates', async () => {
    // the operator prepares a template: what every self-service domain starts from
    const template = await t.http
      .post(`${AUTH}/system_domains/`)
      .set(operator)
      .send({
        name: 'Trial template',
        base_url: 'https://trial.example',
        is_template: true,
        type: 'TRIAL',
        billing_tier: 'PAYGO',
        billing_limits: { standard_users: 2 },
        features: ['uploads'],
      })
      .expect(201);
    const listed = await t.http.get(`${AUTH}/system_domains/templates/`).set(operator).expect(200);
    expect(listed.body.objects.map((d: { id: string }) => d.id)).toContain(template.body.id);

    const founder = `founder-${randomUUID().slice(0, 8)}@example.com`;
    const founderPassword = 'violet-harbour-lantern-42';
    const countries = await t.http.get(`${AUTH}/registrations/countries/?per_page=1000`).expect(200);
    expect(countries.body.objects).toContainEqual(expect.objectContaining({ alpha2: 'NL' }));
    await t.http
      .post(`${AUTH}/registrations/`)
      .send({
        email: founder,
        password: founderPassword,
        first_name: 'Fay',
        last_name: 'Founder',
        country: 'NL',
        company_name: 'Founders Media',
      })
      .expect(201);

    const secret = await mailedSecret(t, founder, 'registrations/verify');
    const verified = await t.http.post(`${AUTH}/registrations/verify/${secret}/`).expect(201);
    expect(verified.body).toMatchObject({
      auto_login: true,
      domain_data: expect.objectContaining({ name: 'Founders Media', id: expect.any(String) }),
      login_data: { app_id: expect.any(String), token: expect.any(String) },
    });
    const domainId = verified.body.domain_data.id as string;
    const created = await t.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: domainId });
    // built from the template: its type, tier, limits and features, not its name or template flag
    expect(created).toMatchObject({
      type: 'TRIAL',
      billing_tier: 'PAYGO',
      billing_limits: { standard_users: 2 },
      features: ['uploads'],
      is_template: false,
      country: 'NL',
    });
    // the link works once
    await t.http.post(`${AUTH}/registrations/verify/${secret}/`).expect(419);

    // the automatic sign-in is a real token of the new domain, and its holder administers it
    const founderH = bearer(verified.body.login_data.token as string);
    const me = await t.http.get(`${AUTH}/auth/token/`).set(founderH).expect(200);
    expect(me.body).toMatchObject({
      system_domain_id: domainId,
      is_admin: true,
      system_domain_status: 'ACTIVE',
    });
    await t.http.get(`${AUTH}/system_domains/${domainId}/`).set(founderH).expect(200);

    // the founder invites a colleague, who accepts by the mailed link
    const colleague = `colleague-${randomUUID().slice(0, 8)}@example.com`;
    const colleaguePassword = 'amber-glacier-compass-17';
    await t.http
      .post(`${USERS}/users/invite/`)
      .set(founderH)
      .send({ email: colleague, first_name: 'Cole' })
      .expect(201);
    const invitation = await mailedSecret(t, colleague, 'invitation');
    const seen = await t.http.get(`${AUTH}/invitation/${invitation}/`).expect(200);
    expect(seen.body).toMatchObject({
      inviter_email: founder,
      local_user_exists: false,
      new_user_email: colleague,
      system_domain_id: domainId,
    });
    const accepted = await t.http
      .put(`${AUTH}/invitation/complete/${invitation}/`)
      .send({ password: colleaguePassword, repeat_password: colleaguePassword, last_name: 'League' })
      .expect(200);
    expect(accepted.body).toMatchObject({ auto_login: true, domain_status: 'ACTIVE' });
    await t.http
      .put(`${AUTH}/invitation/complete/${invitation}/`)
      .send({
        password: colleaguePassword,
        repeat_password: colleaguePassword,
      })
      .expect(419);

    // both sign in with their passwords, into the same domain
    for (const [email, password] of [
      [founder, founderPassword],
      [colleague, colleaguePassword],
    ]) {
      const res = await t.http.post(`${AUTH}/auth/simple/login/`).send({ email, password }).expect(201);
      expect(res.body.system_domain_id).toBe(domainId);
    }
    // the template's limit of two standard users is now reached
    const third = await t.http
      .post(`${USERS}/users/invite/`)
      .set(founderH)
      .send({ email: `third-${randomUUID().slice(0, 8)}@example.com` })
      .expect(400);
    expect(third.body.errors[0]).toContain('standard_users');

    // the operator freezes the domain: reads and sign-in go on, writes stop on the next request
    const colleagueH = bearer(await login(t, colleague, colleaguePassword));
    await t.http
      .patch(`${AUTH}/system_domains/${domainId}/`)
      .set(operator)
      .send({ status: 'FROZEN', warning_message: 'Trial ended: choose a plan' })
      .expect(200);
    const frozen = await t.http.get(`${AUTH}/auth/token/`).set(colleagueH).expect(200);
    expect(frozen.body).toMatchObject({
      system_domain_status: 'FROZEN',
      system_domain_warning_message: 'Trial ended: choose a plan',
    });
    await t.http.post(`${USERS}/groups/`).set(founderH).send({ name: 'editors', roles: [] }).expect(403);
    await login(t, colleague, colleaguePassword);

    // deactivated: every existing token answers 401 at once, and sign-in is refused
    await t.http
      .patch(`${AUTH}/system_domains/${domainId}/`)
      .set(operator)
      .send({ status: 'DEACTIVATED' })
      .expect(200);
    await t.http.get(`${AUTH}/auth/token/`).set(colleagueH).expect(401);
    await t.http.get(`${AUTH}/auth/token/`).set(founderH).expect(401);
    await t.http
      .post(`${AUTH}/auth/simple/login/`)
      .send({ email: founder, password: founderPassword })
      .expect(401);
  });
});
