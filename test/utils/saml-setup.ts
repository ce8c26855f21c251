import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from './auth.js';
import type { TestApp } from './create-test-app.js';
import {
  authnRequestOf,
  b64,
  buildResponse,
  IDP_ENTITY_ID,
  IDP_SSO_URL,
  makeIdpKeys,
  type ResponseOptions,
  type TestIdpKeys,
} from './saml-idp.js';

export const SAML = '/API/auth/v1/auth/saml';

export interface SamlWorld {
  emailDomain: string;
  keys: TestIdpKeys;
  domainId: string;
  admin: UserEntity;
  adminAuth: Record<string, string>;
  member: UserEntity;
  idp: { id: string; public_id: string; saml_settings: { acs_url: string; sp_entity_id: string } };
  /** Starts SP-initiated SSO and returns the AuthnRequest's ID. */
  startRequest(returnTo?: string): Promise<string>;
  /** A response for `email` answering `inResponseTo`, base64, with overrides. */
  response(o: Partial<ResponseOptions> & { inResponseTo?: string | null }): string;
  /** POSTs a SAMLResponse to the IdP's ACS. */
  post(
    samlResponse: string,
    relayState?: string,
  ): Promise<{ status: number; location?: string; body: unknown }>;
}

/**
 * A domain with an administrator, a member (member-…@acme.test, or `emailDomain`), a GENERIC IdP from the test
 * IdP, acme.test bound to it and verified (by the bootstrap super administrator's decision).
 */
export async function samlWorld(
  t: TestApp,
  o: { settings?: Record<string, unknown>; keys?: TestIdpKeys; emailDomain?: string } = {},
): Promise<SamlWorld> {
  const k = o.keys ?? (await makeIdpKeys());
  const settings = o.settings ?? {};
  const emailDomain = o.emailDomain ?? 'acme.test';
  const domain = await createDomain(t, { base_url: 'https://app.acme.test' });
  const admin = await createUser(t, {
    domainId: domain.id,
    isAdmin: true,
    email: `admin-${domain.id.slice(0, 6)}@acme-admin.test`,
  });
  const member = await createUser(t, {
    domainId: domain.id,
    email: `member-${domain.id.slice(0, 6)}@${emailDomain}`,
  });
  const adminAuth = bearer((await tokenFor(t, admin, { domainId: domain.id })).token);
  const created = await t.http
    .post(`${SAML}/idp/`)
    .set(adminAuth)
    .send({
      type: 'GENERIC',
      settings: {
        name: 'Acme IdP',
        idp_entity_id: IDP_ENTITY_ID,
        idp_sso_post_url: IDP_SSO_URL,
        idp_x509cert: k.cert,
        ...settings,
      },
    })
    .expect(201);
  const idp = created.body;
  await t.http
    .post(`${SAML}/domains/`)
    .set(adminAuth)
    .send({ domain: emailDomain, identity_provider_id: idp.id, system_domain_id: domain.id })
    .expect(201);
  await verifyByDecision(t, emailDomain, domain.id);
  const world: SamlWorld = {
    emailDomain,
    keys: k,
    domainId: domain.id,
    admin,
    adminAuth,
    member,
    idp,
    startRequest: async (returnTo) => {
      const q = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : '';
      const res = await t.http.get(`${SAML}/sso/${idp.public_id}/${q}`).expect(302);
      return authnRequestOf(res.headers.location).id;
    },
    response: (o) =>
      b64(
        buildResponse({
          keys: k,
          email: member.email,
          acsUrl: idp.saml_settings.acs_url,
          audience: idp.saml_settings.sp_entity_id,
          ...o,
        }),
      ),
    post: async (samlResponse, relayState) => {
      const res = await t.http
        .post(`${SAML}/acs/${idp.public_id}/`)
        .type('form')
        .send({ SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) });
      return { status: res.status, location: res.headers.location, body: res.body };
    },
  };
  return world;
}

/** A super administrator's decision verifies a domain's binding of `emailDomain` (docs/saml.md). */
export async function verifyByDecision(t: TestApp, emailDomain: string, domainId: string): Promise<void> {
  const superAdmin = bearer((await tokenFor(t, t.admin)).token);
  const res = await t.http
    .post(`${SAML}/domains/${emailDomain}/verify/`)
    .set(superAdmin)
    .send({ force: true, system_domain_id: domainId })
    .expect(200);
  if (res.body.verified !== true) throw new Error(`binding of ${emailDomain} not verified`);
}

/** The saml_code of an ACS redirect. */
export function codeOf(location: string | undefined): string | null {
  return location ? new URL(location).searchParams.get('saml_code') : null;
}
