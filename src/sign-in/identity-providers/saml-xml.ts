import { createRequire } from 'node:module';
import type * as Xmldom from '@xmldom/xmldom';
import { parseCertificate, certificatePem, type IdpSettings } from './idp-settings.js';

export const MAX_XML_BYTES = 200_000;
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
export const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export class HostileXmlError extends Error {}

/**
 * xmldom, loaded on first use (most processes never see SAML): its CommonJS build, the one node-saml's
 * xml-crypto loads too, so that the functions here stay synchronous.
 */
const require = createRequire(import.meta.url);
let xmldom: typeof Xmldom | undefined;
const DOMParser = () => (xmldom ??= require('@xmldom/xmldom') as typeof Xmldom).DOMParser;

/**
 * Parses a document from outside (IdP metadata, a SAMLResponse) only when it is plainly a document: bounded
 * in size, and without a DTD of any kind (`<!DOCTYPE`, `<!ENTITY`, `<!ELEMENT`, …), so nothing outside the
 * document is ever read and no entity is ever expanded. Anything the parser complains about is refused too.
 */
export function parseXml(xml: string): Document {
  if (Buffer.byteLength(xml, 'utf8') > MAX_XML_BYTES) throw new HostileXmlError('the document is too large');
  if (/<!(?!--|\[CDATA\[)/.test(xml))
    throw new HostileXmlError('DTDs and entity declarations are not accepted');
  if (/<\?xml-stylesheet/i.test(xml)) throw new HostileXmlError('processing instructions are not accepted');
  const problems: string[] = [];
  const doc = new (DOMParser())({
    errorHandler: (level: string, msg: unknown) => {
      if (level !== 'warning') problems.push(String(msg));
    },
  }).parseFromString(xml, 'text/xml');
  if (problems.length || !doc?.documentElement)
    throw new HostileXmlError('the document is not well-formed XML');
  return doc;
}

const children = (el: Element, ns: string, name: string): Element[] =>
  Array.from(el.getElementsByTagNameNS(ns, name) as unknown as ArrayLike<Element>);

/**
 * IdP metadata (an EntityDescriptor, or an EntitiesDescriptor holding one IdP) → GENERIC settings: entity
 * id, SSO location (HTTP-POST preferred, else HTTP-Redirect), SLO location, the signing certificate, and
 * whether the IdP wants signed AuthnRequests. Throws HostileXmlError for anything else.
 */
export function metadataToSettings(xml: string): IdpSettings {
  const doc = parseXml(xml);
  const root = doc.documentElement!;
  const entity =
    root.namespaceURI === MD && root.localName === 'EntityDescriptor'
      ? root
      : root.namespaceURI === MD && root.localName === 'EntitiesDescriptor'
        ? children(root, MD, 'EntityDescriptor').find((e) => children(e, MD, 'IDPSSODescriptor').length)
        : undefined;
  if (!entity) throw new HostileXmlError('expected a SAML 2.0 EntityDescriptor');
  const idp = children(entity, MD, 'IDPSSODescriptor')[0];
  if (!idp) throw new HostileXmlError('the EntityDescriptor has no IDPSSODescriptor');
  const locate = (name: string, bindings: string[]) => {
    const services = children(idp, MD, name);
    for (const b of bindings) {
      const s = services.find((x) => x.getAttribute('Binding') === b && x.getAttribute('Location'));
      if (s) return s.getAttribute('Location');
    }
    return null;
  };
  const key =
    children(idp, MD, 'KeyDescriptor').find((k) => (k.getAttribute('use') ?? 'signing') === 'signing') ??
    null;
  const certText = key ? (children(key, DS, 'X509Certificate')[0]?.textContent ?? '') : '';
  const cert = certText ? parseCertificate(certText) : null;
  if (certText && !cert) throw new HostileXmlError('the signing certificate cannot be read');
  const org = children(entity, MD, 'OrganizationDisplayName')[0]?.textContent?.trim();
  const entityId = entity.getAttribute('entityID') ?? '';
  const settings: IdpSettings = {
    name: org || entityId,
    idp_entity_id: entityId,
    idp_sso_post_url: locate('SingleSignOnService', [POST, REDIRECT]),
    idp_sls_redirect_url: locate('SingleLogoutService', [REDIRECT, POST]),
    idp_x509cert: cert ? certificatePem(cert) : null,
    authn_requests_signed: idp.getAttribute('WantAuthnRequestsSigned') === 'true',
  };
  return Object.fromEntries(
    Object.entries(settings).filter(([, v]) => v !== null && v !== ''),
  ) as IdpSettings;
}

/** What the ACS checks itself in the signed assertion (node-saml checks signatures, times and audience). */
export interface AssertionFacts {
  id: string | null;
  issuer: string | null;
  nameId: string | null;
  nameIdFormat: string | null;
  recipients: string[];
  notOnOrAfter: Date | null;
  attributes: Record<string, string[]>;
}

/** Reads the verified assertion's XML (the signed element, as node-saml returns it). */
export function assertionFacts(xml: string): AssertionFacts {
  const doc = parseXml(xml);
  const a = doc.documentElement!;
  const text = (el: Element | undefined) => (el ? (el.textContent ?? '').trim() : null);
  const nameId = children(a, SAML, 'NameID')[0];
  const times: number[] = [];
  const recipients: string[] = [];
  for (const d of children(a, SAML, 'SubjectConfirmationData')) {
    recipients.push(d.getAttribute('Recipient') ?? '');
    const t = Date.parse(d.getAttribute('NotOnOrAfter') ?? '');
    if (!Number.isNaN(t)) times.push(t);
  }
  const cond = children(a, SAML, 'Conditions')[0];
  const c = Date.parse(cond?.getAttribute('NotOnOrAfter') ?? '');
  if (!Number.isNaN(c)) times.push(c);
  const attributes: Record<string, string[]> = {};
  for (const attr of children(a, SAML, 'Attribute')) {
    const name = attr.getAttribute('Name') ?? '';
    attributes[name] = children(attr, SAML, 'AttributeValue').map((v) => (v.textContent ?? '').trim());
  }
  return {
    id: a.getAttribute('ID'),
    issuer: text(
      Array.from(a.childNodes as unknown as ArrayLike<Element>).find((n) => n.localName === 'Issuer'),
    ),
    nameId: text(nameId),
    nameIdFormat: nameId?.getAttribute('Format') ?? null,
    recipients,
    notOnOrAfter: times.length ? new Date(Math.max(...times)) : null,
    attributes,
  };
}

/** The Response's own Destination and InResponseTo (unsigned unless the response is signed). */
export function responseEnvelope(xml: string): { destination: string | null; inResponseTo: string | null } {
  const root = parseXml(xml).documentElement!;
  if (root.namespaceURI !== SAMLP || root.localName !== 'Response') {
    throw new HostileXmlError('expected a SAML 2.0 Response');
  }
  return { destination: root.getAttribute('Destination'), inResponseTo: root.getAttribute('InResponseTo') };
}

/** Every certificate a response's signatures carry in their KeyInfo (for fingerprint-only IdPs). */
export function embeddedCertificates(xml: string): string[] {
  const doc = parseXml(xml);
  return children(doc.documentElement!, DS, 'X509Certificate').map((c) => c.textContent ?? '');
}
