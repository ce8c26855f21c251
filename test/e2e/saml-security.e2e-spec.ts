import { createHash, X509Certificate } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApp } from '../../src/app/app.factory.js';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { recordContract } from '../utils/contract/recorder.js';
import { b64, buildResponse, makeIdpKeys, parseDom, serialize, sign } from '../utils/saml-idp.js';
import { SAML, samlWorld, type SamlWorld } from '../utils/saml-setup.js';

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';

/**
 * Forged, replayed or tampered SAML responses never sign anyone in: each case answers 401 (or 400 for a
 * document that is not plainly one) and leaves no sign-in code behind.
 */
describe('SAML security: what the ACS refuses', () => {
  let t: TestApp;
  let w: SamlWorld;
  let boss: { email: string };

  beforeAll(async () => {
    t = await createTestApp();
    w = await samlWorld(t);
    boss = await createUser(t, { domainId: w.domainId, email: 'boss@acme.test', isAdmin: true });
  });
  afterAll(() => t?.close());

  const codes = async () =>
    Number((await t.ds.query('SELECT count(*)::int AS n FROM saml_login_codes'))[0].n);

  /** Posts and expects a refusal that issued nothing. */
  async function refused(samlResponse: string, status = 401): Promise<void> {
    const before = await codes();
    const r = await w.post(samlResponse);
    expect({ status: r.status, location: r.location }).toEqual({ status, location: undefined });
    expect(await codes()).toBe(before);
  }

  /** The attacker's own legitimate response (member@acme.test), as the XML before base64. */
  async function legit(o: { signResponse?: boolean; signAssertion?: boolean } = {}): Promise<string> {
    const id = await w.startRequest();
    return buildResponse({
      keys: w.keys,
      email: w.member.email,
      acsUrl: w.idp.saml_settings.acs_url,
      audience: w.idp.saml_settings.sp_entity_id,
      inResponseTo: id,
      ...o,
    });
  }

  it('positive control: the untampered response signs in', async () => {
    const r = await w.post(b64(await legit()));
    expect(r.status).toBe(302);
  });

  it('an unsigned response', async () => {
    await refused(b64(await legit({ signAssertion: false })));
  });

  it('a response signed by another key (its certificate embedded)', async () => {
    const other = await makeIdpKeys();
    const id = await w.startRequest();
    await refused(w.response({ keys: other, inResponseTo: id }));
    await refused(w.response({ keys: other, inResponseTo: await w.startRequest(), signResponse: true }));
  });

  it('a signed assertion whose content was changed after signing', async () => {
    const xml = (await legit()).replace(w.member.email, boss.email);
    await refused(b64(xml));
  });

  describe('XML signature wrapping (the evil assertion names boss@acme.test)', () => {
    const first = (el: Element | Document, ns: string, name: string) =>
      (el as Element).getElementsByTagNameNS(ns, name)[0] as Element;
    const evilOf = (assertion: Element, keepSignature: boolean) => {
      const evil = assertion.cloneNode(true) as Element;
      evil.setAttribute('ID', '_evil');
      first(evil, ASSERTION, 'NameID').textContent = boss.email;
      const sig = first(evil, DS, 'Signature');
      if (sig && !keepSignature) evil.removeChild(sig);
      return evil;
    };
    const withoutSignature = (el: Element) => {
      const c = el.cloneNode(true) as Element;
      const sig = Array.from(c.childNodes as unknown as Element[]).find((n) => n.localName === 'Signature');
      if (sig) c.removeChild(sig);
      return c;
    };
    const dsObject = (doc: Document, content: Element) => {
      const o = doc.createElementNS(DS, 'ds:Object');
      o.appendChild(content);
      return o;
    };

    /** Attacks on the assertion's signature (XSW3–XSW8), the IdP signing assertions. */
    const assertionAttacks: Record<string, (doc: Document, resp: Element, orig: Element) => void> = {
      XSW3: (_d, resp, orig) => resp.insertBefore(evilOf(orig, false), orig),
      XSW4: (_d, resp, orig) => {
        const evil = evilOf(orig, false);
        resp.replaceChild(evil, orig);
        evil.appendChild(orig);
      },
      XSW5: (_d, resp, orig) => {
        resp.replaceChild(evilOf(orig, true), orig);
        resp.appendChild(withoutSignature(orig));
      },
      XSW6: (doc, resp, orig) => {
        const evil = evilOf(orig, true);
        first(evil, DS, 'Signature').appendChild(dsObject(doc, withoutSignature(orig)));
        resp.replaceChild(evil, orig);
      },
      XSW7: (doc, resp, orig) => {
        const ext = doc.createElementNS(PROTOCOL, 'samlp:Extensions');
        resp.replaceChild(evilOf(orig, false), orig);
        ext.appendChild(orig);
        resp.insertBefore(ext, resp.firstChild);
      },
      XSW8: (doc, resp, orig) => {
        const evil = evilOf(orig, true);
        first(evil, DS, 'Signature').appendChild(dsObject(doc, withoutSignature(orig)));
        resp.replaceChild(evil, orig);
      },
    };
    for (const [name, attack] of Object.entries(assertionAttacks)) {
      it(name, async () => {
        const doc = parseDom(await legit());
        const resp = doc.documentElement as unknown as Element;
        attack(doc as unknown as Document, resp, first(resp, ASSERTION, 'Assertion'));
        await refused(b64(serialize(doc as unknown as Node)));
      });
    }

    describe('on the response’s signature (XSW1, XSW2: an IdP that signs responses only)', () => {
      let r: SamlWorld;
      beforeAll(async () => {
        r = await samlWorld(t, {
          settings: { want_messages_signed: true, want_assertions_signed: false },
          emailDomain: 'signed-responses.test',
        });
      });
      const responseOnly = async () =>
        buildResponse({
          keys: r.keys,
          email: r.member.email,
          acsUrl: r.idp.saml_settings.acs_url,
          audience: r.idp.saml_settings.sp_entity_id,
          inResponseTo: await r.startRequest(),
          signAssertion: false,
          signResponse: true,
        });
      const evilResponse = (doc: Document, resp: Element) => {
        const evil = withoutSignature(resp);
        evil.setAttribute('ID', '_evilresponse');
        first(evil, ASSERTION, 'NameID').textContent = `boss2@acme.test`;
        return evil;
      };
      it('positive control: the response-signed response signs in', async () => {
        expect((await r.post(b64(await responseOnly()))).status).toBe(302);
      });
      it('XSW1', async () => {
        const doc = parseDom(await responseOnly()) as unknown as Document;
        const resp = doc.documentElement as Element;
        const evil = evilResponse(doc, resp);
        const sig = first(resp, DS, 'Signature').cloneNode(true) as Element;
        sig.appendChild(dsObject(doc, withoutSignature(resp)));
        evil.insertBefore(sig, first(evil, ASSERTION, 'Issuer').nextSibling);
        const before = await codes();
        expect((await r.post(b64(serialize(evil)))).status).toBe(401);
        expect(await codes()).toBe(before);
      });
      it('XSW2', async () => {
        const doc = parseDom(await responseOnly()) as unknown as Document;
        const resp = doc.documentElement as Element;
        const evil = evilResponse(doc, resp);
        const sig = first(resp, DS, 'Signature').cloneNode(true) as Element;
        const anchor = first(evil, ASSERTION, 'Issuer').nextSibling;
        evil.insertBefore(sig, anchor);
        evil.insertBefore(resp.cloneNode(true), sig);
        const before = await codes();
        expect((await r.post(b64(serialize(evil)))).status).toBe(401);
        expect(await codes()).toBe(before);
      });
    });
  });

  it('comment injection in the NameID does not truncate the email', async () => {
    const id = await w.startRequest();
    const xml = buildResponse({
      keys: w.keys,
      email: 'boss@acme.test.evil.test',
      acsUrl: w.idp.saml_settings.acs_url,
      audience: w.idp.saml_settings.sp_entity_id,
      inResponseTo: id,
    }).replace('boss@acme.test.evil.test', 'boss@acme.test<!---->.evil.test');
    await refused(b64(xml));
  });

  it('wrong audience', async () => {
    await refused(w.response({ inResponseTo: await w.startRequest(), audience: 'https://other-sp.test/' }));
  });

  it('wrong destination, wrong recipient', async () => {
    await refused(
      w.response({ inResponseTo: await w.startRequest(), destination: 'https://other-sp.test/acs' }),
    );
    await refused(
      w.response({ inResponseTo: await w.startRequest(), recipient: 'https://other-sp.test/acs' }),
    );
  });

  it('expired and not-yet-valid assertions', async () => {
    const now = Date.now();
    await refused(
      w.response({
        inResponseTo: await w.startRequest(),
        notBefore: new Date(now - 20 * 60_000),
        notOnOrAfter: new Date(now - 10 * 60_000),
      }),
    );
    await refused(
      w.response({
        inResponseTo: await w.startRequest(),
        notBefore: new Date(now + 10 * 60_000),
        notOnOrAfter: new Date(now + 20 * 60_000),
      }),
    );
  });

  it('a replayed assertion', async () => {
    const response = w.response({ inResponseTo: await w.startRequest() });
    expect((await w.post(response)).status).toBe(302);
    await refused(response);
  });

  it('a replayed assertion even when the request it answers is still pending (same assertion ID)', async () => {
    const assertionId = `_fixed${Date.now()}`;
    expect((await w.post(w.response({ inResponseTo: await w.startRequest(), assertionId }))).status).toBe(
      302,
    );
    await refused(w.response({ inResponseTo: await w.startRequest(), assertionId }));
  });

  it('InResponseTo of another request: unknown, or sent to another IdP', async () => {
    await refused(w.response({ inResponseTo: '_never-sent' }));
    const other = await samlWorld(t, { keys: w.keys, emailDomain: 'same-keys.test' });
    await refused(w.response({ inResponseTo: await other.startRequest() }));
  });

  it('a response for a disabled IdP', async () => {
    const id = await w.startRequest();
    await t.http.patch(`${SAML}/idp/${w.idp.id}/`).set(w.adminAuth).send({ enabled: false }).expect(200);
    try {
      await refused(w.response({ inResponseTo: id }));
      await t.http.get(`${SAML}/sso/${w.idp.public_id}/`).expect(400);
      await t.http.post(`${SAML}/login/`).send({ email: 'x@acme.test' }).expect(404);
    } finally {
      await t.http.patch(`${SAML}/idp/${w.idp.id}/`).set(w.adminAuth).send({ enabled: true }).expect(200);
    }
  });

  it('a response for a deactivated domain', async () => {
    const d = await samlWorld(t, { emailDomain: 'deactivated.test' });
    const id = await d.startRequest();
    await t.ds.getRepository(SystemDomainEntity).update({ id: d.domainId }, { status: 'DEACTIVATED' });
    await refused(d.response({ inResponseTo: id }));
    // and SSO no longer starts from the sign-in page for its email domain
    await t.http.post(`${SAML}/login/`).send({ email: 'x@deactivated.test' }).expect(404);
  });

  it('an email outside the bound domains, or of a user of another tenant', async () => {
    const outsider = await createUser(t, { domainId: w.domainId, email: 'someone@elsewhere.test' });
    await refused(w.response({ inResponseTo: await w.startRequest(), email: outsider.email }));
    // a person of another tenant whose address is under acme.test: never signed in to the IdP's domain
    const elsewhere = await createDomain(t);
    const stranger = await createUser(t, { domainId: elsewhere.id, email: 'stranger@acme.test' });
    await t.http
      .patch(`${SAML}/idp/${w.idp.id}/`)
      .set(w.adminAuth)
      .send({ settings: { jit_provisioning: true } });
    try {
      await refused(w.response({ inResponseTo: await w.startRequest(), email: stranger.email }));
    } finally {
      await t.http
        .patch(`${SAML}/idp/${w.idp.id}/`)
        .set(w.adminAuth)
        .send({ settings: { jit_provisioning: false } });
    }
  });

  it('a response meant for another IdP’s ACS (its own certificate)', async () => {
    const other = await samlWorld(t, { emailDomain: 'other-idp.test' });
    const xml = buildResponse({
      keys: other.keys,
      email: w.member.email,
      acsUrl: w.idp.saml_settings.acs_url,
      audience: w.idp.saml_settings.sp_entity_id,
      inResponseTo: await w.startRequest(),
    });
    await refused(b64(xml));
  });

  it('hostile documents: a DTD, external entities, entity expansion, a huge body, not base64 (400)', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${await legit()}`;
    await refused(b64(xxe), 400);
    const lol = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>`;
    await refused(b64(lol + (await legit()).replace(w.member.email, '&b;')), 400);
    await refused(b64(`<samlp:Response xmlns:samlp="x">${'<a>'.repeat(10)}`), 400);
    await refused('%%%not base64%%%', 400);
    const huge = b64(`<x>${'A'.repeat(300_000)}</x>`);
    const r = await w.post(huge);
    expect([400, 413]).toContain(r.status);
  });

  it('a signed response embedded inside another element is not found by the signature check alone', async () => {
    const signed = await legit();
    const wrapped = `<samlp:Response xmlns:samlp="${PROTOCOL}" ID="_outer" Version="2.0" IssueInstant="${new Date().toISOString()}"><samlp:Extensions>${signed.replace(/^<\?xml[^>]*>/, '')}</samlp:Extensions></samlp:Response>`;
    await refused(b64(wrapped));
  });

  it('an IdP configured by certificate fingerprint: its own certificate signs in, another is refused', async () => {
    const keys = await makeIdpKeys();
    const fingerprint = createHash('sha256').update(new X509Certificate(keys.cert).raw).digest('hex');
    const f = await samlWorld(t, {
      keys,
      emailDomain: 'fingerprint.test',
      settings: {
        idp_x509cert: null,
        cert_fingerprint: fingerprint.match(/../g)!.join(':').toUpperCase(),
        cert_fingerprint_algorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      },
    });
    expect((await f.post(f.response({ inResponseTo: await f.startRequest() }))).status).toBe(302);
    const other = await makeIdpKeys();
    const before = await codes();
    const r = await f.post(f.response({ keys: other, inResponseTo: await f.startRequest() }));
    expect(r.status).toBe(401);
    expect(await codes()).toBe(before);
  });

  const onPostgres = Boolean(process.env.DATABASE_URL);
  (onPostgres ? it : it.skip)(
    'a replayed assertion is refused by a second instance on the same database',
    async () => {
      const second: NestExpressApplication = await createApp(t.config);
      recordContract(second.getHttpServer());
      try {
        const response = w.response({ inResponseTo: await w.startRequest() });
        expect((await w.post(response)).status).toBe(302);
        const before = await codes();
        const replay = await request(second.getHttpServer())
          .post(`${SAML}/acs/${w.idp.public_id}/`)
          .type('form')
          .send({ SAMLResponse: response });
        expect(replay.status).toBe(401);
        expect(await codes()).toBe(before);
      } finally {
        await second.close();
      }
    },
  );

  it('keeps signing in after all of the above (the IdP still works)', async () => {
    expect((await w.post(b64(await legit()))).status).toBe(302);
    expect(sign).toBeDefined();
  });
});
