import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML 2.0 identity provider inside the tests: its own key pair and certificate (selfsigned), and
 * responses built and signed with xml-crypto (what node-saml itself verifies with), so every field an
 * attacker could touch can be set or broken on purpose.
 */
export interface TestIdpKeys {
  privateKey: string;
  cert: string;
}

export async function makeIdpKeys(): Promise<TestIdpKeys> {
  const pems = await generate([{ name: 'commonName', value: 'idp.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  return { privateKey: pems.private, cert: pems.cert };
}

export const IDP_ENTITY_ID = 'https://idp.acme.test/metadata';
export const IDP_SSO_URL = 'https://idp.acme.test/sso';

export interface ResponseOptions {
  keys: TestIdpKeys;
  email: string;
  acsUrl: string;
  audience: string;
  inResponseTo?: string | null;
  destination?: string | null;
  recipient?: string;
  issuer?: string;
  assertionId?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  attributes?: Record<string, string | string[]>;
  signAssertion?: boolean;
  signResponse?: boolean;
  nameIdFormat?: string;
}

const iso = (d: Date) => d.toISOString();

/** The Response XML, signed as asked (assertion first, then the response around it). */
export function buildResponse(o: ResponseOptions): string {
  const now = new Date();
  const notBefore = o.notBefore ?? new Date(now.getTime() - 60_000);
  const notOnOrAfter = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const issuer = o.issuer ?? IDP_ENTITY_ID;
  const aid = o.assertionId ?? `_a${randomUUID()}`;
  const irt = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  const dest = o.destination === null ? '' : ` Destination="${o.destination ?? o.acsUrl}"`;
  const attrs = Object.entries(o.attributes ?? {})
    .map(
      ([k, v]) =>
        `<saml:Attribute Name="${k}">${[v]
          .flat()
          .map((x) => `<saml:AttributeValue>${x}</saml:AttributeValue>`)
          .join('')}</saml:Attribute>`,
    )
    .join('');
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${aid}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${o.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'}">${o.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${irt} NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${o.recipient ?? o.acsUrl}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`;
  const signedAssertion = o.signAssertion === false ? assertion : sign(assertion, 'Assertion', o.keys);
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(now)}"${dest}${irt}>` +
    `<saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signedAssertion +
    `</samlp:Response>`;
  return o.signResponse ? sign(response, 'Response', o.keys) : response;
}

/** An enveloped signature over the (first) element of that local name, placed after its Issuer. */
export function sign(xml: string, element: 'Assertion' | 'Response', keys: TestIdpKeys): string {
  const sig = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const path = element === 'Response' ? "/*[local-name(.)='Response']" : "//*[local-name(.)='Assertion']";
  sig.addReference({
    xpath: path,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  sig.computeSignature(xml, {
    location: { reference: `${path}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

export const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** The AuthnRequest in a redirect-binding URL: its ID, and the whole decoded request. */
export function authnRequestOf(location: string): {
  id: string;
  xml: string;
  relayState: string | null;
  url: URL;
} {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString(
    'utf8',
  );
  const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
  return { id, xml, relayState: url.searchParams.get('RelayState'), url };
}

export const parseDom = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml');
export const serialize = (node: Node) => new XMLSerializer().serializeToString(node);
