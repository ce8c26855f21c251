import { GROUP_ATTRIBUTES } from '../../accounts/groups/group-mappings.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { SAML, SamlConfig } from '@node-saml/node-saml';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { IdentityProviderEntity } from '../../base/model/identity-provider.entity.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersRepository } from './identity-providers.repository.js';
import { IdentityProvidersService } from './identity-providers.service.js';
import { fingerprintOf, parseCertificate, signingAlgorithm, DIGEST_ALGORITHMS } from './idp-settings.js';
import { NAME_ID_EMAIL, SAML_BASE, spUrls } from './idp-view.js';
import { REQUEST_TTL_MS, SamlRequestCache } from './saml-request-cache.js';
import {
  assertionFacts,
  embeddedCertificates,
  HostileXmlError,
  MAX_XML_BYTES,
  parseXml,
  responseEnvelope,
} from './saml-xml.js';

/** Clock skew accepted on NotBefore / NotOnOrAfter. */
export const CLOCK_SKEW_MS = 30_000;

/** Why a response was refused: logged, never shown (the answer is one 401 whatever it was). */
export class SamlRefusal extends Error {}

export interface AcceptedAssertion {
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** Where the browser returns: the SP-initiated request's, else (IdP-initiated) the RelayState if allowed. */
  returnTo: string | null;
  spInitiated: boolean;
  /** The group names the identity provider asserts (groups/group-mappings.ts maps them to groups). */
  groups: string[];
}

/**
 * node-saml for one IdP at a time: the AuthnRequest (redirect binding, signed when configured), the SP
 * metadata, and the ACS's validation of a POSTed response, with the checks node-saml leaves to its caller:
 * issuer, Destination and Recipient, a single use of each assertion ID across every instance, and the
 * consumption of the request it answers.
 */
@Injectable()
export class SamlService {
  private readonly logger = new Logger('SAML');

  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly idps: IdentityProvidersService,
    private readonly repo: IdentityProvidersRepository,
  ) {}

  async byPublicId(publicId: string): Promise<IdentityProviderEntity> {
    const idp = /^[0-9a-f-]{36}$/i.test(publicId) ? await this.repo.idpWithKeyByPublicId(publicId) : null;
    if (!idp) throw IdpErrors.NOT_FOUND();
    return idp;
  }

  /** The deprecated `{system_domain_id}/{identity_provider_id}` form. */
  async byDomainAndId(domainId: string, id: string): Promise<IdentityProviderEntity> {
    const uuid = /^[0-9a-f-]{36}$/i;
    const idp = uuid.test(domainId) && uuid.test(id) ? await this.repo.idpWithKey(id, domainId) : null;
    if (!idp) throw IdpErrors.NOT_FOUND();
    return idp;
  }

  /** The IdP's URL that starts SSO: an AuthnRequest (redirect binding) remembered with where to return. */
  async authorizeUrl(idp: IdentityProviderEntity, returnTo: string | null): Promise<string> {
    if (!idp.settings.idp_sso_post_url || !idp.enabled) throw IdpErrors.NOT_CONFIGURED();
    await this.sweep();
    const saml = await this.saml(idp, new SamlRequestCache(this.repo, idp.id, returnTo), ['placeholder']);
    // the ACS trusts the stored request's return address, not the RelayState coming back through the browser
    return saml.getAuthorizeUrlAsync(returnTo ?? '', undefined, {});
  }

  async metadata(idp: IdentityProviderEntity): Promise<string> {
    const saml = await this.saml(idp, new SamlRequestCache(this.repo, idp.id), ['placeholder']);
    const cert = idp.sp_certificate;
    const signs = idp.settings.authn_requests_signed === true;
    const decrypts = idp.settings.name_id_encrypted === true;
    return saml.generateServiceProviderMetadata(decrypts ? cert : null, signs ? cert : null);
  }

  logoutUrl(idp: IdentityProviderEntity): string | null {
    return typeof idp.settings.idp_sls_redirect_url === 'string' ? idp.settings.idp_sls_redirect_url : null;
  }

  /**
   * Validates a POSTed SAMLResponse for `idp` (signatures, certificate or fingerprint, times, audience by
   * node-saml; the rest here). Throws SamlRefusal for anything wrong, HostileXmlError for a document that is
   * not plainly one.
   */
  async accept(
    idp: IdentityProviderEntity,
    samlResponse: string,
    relayState: string | null,
  ): Promise<AcceptedAssertion> {
    if (samlResponse.length > (MAX_XML_BYTES * 4) / 3 + 4 || !/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) {
      throw new HostileXmlError('SAMLResponse is not base64');
    }
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    parseXml(xml); // the hostile-document rules first, before any library sees it
    const envelope = responseEnvelope(xml);
    const settings = idp.settings;
    if (!idp.enabled) throw new SamlRefusal('the identity provider is disabled');
    const certs = this.trustedCertificates(idp, xml);
    if (!certs.length)
      throw new SamlRefusal('no trusted certificate (none configured, or no fingerprint match)');
    const saml = await this.saml(idp, new SamlRequestCache(this.repo, idp.id), certs);
    let profile;
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (e) {
      throw new SamlRefusal((e as Error).message);
    }
    if (!profile?.getAssertionXml) throw new SamlRefusal('no assertion');
    const assertionXml = profile.getAssertionXml();
    if (idp.verbose_logging) {
      this.logger.log(
        { identity_provider_id: idp.id, assertion: assertionXml },
        'SAML assertion (verbose logging)',
      );
    }
    const facts = assertionFacts(assertionXml);
    const acs = this.acsUrls(idp);
    if (settings.idp_entity_id && facts.issuer !== settings.idp_entity_id)
      throw new SamlRefusal('wrong issuer');
    if (envelope.destination !== null && !acs.has(norm(envelope.destination)))
      throw new SamlRefusal('wrong Destination');
    if (!facts.recipients.length || facts.recipients.some((r) => !acs.has(norm(r)))) {
      throw new SamlRefusal('wrong or missing Recipient');
    }
    if (!facts.id) throw new SamlRefusal('assertion without ID');
    if (!envelope.inResponseTo && settings.allow_idp_initiated !== true) {
      throw new SamlRefusal('unsolicited response, and the IdP does not allow IdP-initiated sign-in');
    }
    const expires = new Date(
      Math.max(facts.notOnOrAfter?.getTime() ?? 0, Date.now() + REQUEST_TTL_MS) + CLOCK_SKEW_MS,
    );
    if (!(await this.repo.recordAssertion(idp.id, facts.id, expires)))
      throw new SamlRefusal('assertion replayed');
    let returnTo: string | null = null;
    if (envelope.inResponseTo) {
      const consumed = await this.repo.takeRequest(envelope.inResponseTo, idp.id);
      if (!consumed) throw new SamlRefusal('InResponseTo names no pending request');
      returnTo = consumed.return_to;
    } else {
      returnTo = relayState;
    }
    const email = this.emailOf(facts);
    if (!email) throw new SamlRefusal('no email in the assertion');
    const first = pick(facts.attributes, [
      'first_name',
      'firstName',
      'givenName',
      'given_name',
      'urn:oid:2.5.4.42',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    ]);
    const last = pick(facts.attributes, [
      'last_name',
      'lastName',
      'sn',
      'surname',
      'urn:oid:2.5.4.4',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    ]);
    const groups =
      GROUP_ATTRIBUTES.map((n) => (Object.hasOwn(facts.attributes, n) ? facts.attributes[n] : [])).find(
        (v) => v.length,
      ) ?? [];
    return {
      email,
      firstName: first,
      lastName: last,
      returnTo,
      spInitiated: Boolean(envelope.inResponseTo),
      groups,
    };
  }

  /**
   * Deletes the rows that can no longer matter (expired requests, assertion IDs past their validity, codes
   * past their minute), at most once a minute per instance, when an SSO starts: indexed on `expires`.
   */
  async sweep(): Promise<void> {
    if (Date.now() - this.swept < 60_000) return;
    this.swept = Date.now();
    await this.repo.sweepExpired();
  }
  private swept = 0;

  private emailOf(f: {
    nameId: string | null;
    nameIdFormat: string | null;
    attributes: Record<string, string[]>;
  }): string | null {
    const candidates = [
      f.nameId,
      pick(f.attributes, [
        'email',
        'mail',
        'emailAddress',
        'urn:oid:0.9.2342.19200300.100.1.3',
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
      ]),
    ];
    for (const c of candidates) {
      const v = c?.trim().toLowerCase();
      if (v && v.length <= 254 && /^[^\s@<>"]+@[a-z0-9.-]+$/.test(v)) return v;
    }
    return null;
  }

  private acsUrls(idp: IdentityProviderEntity): Set<string> {
    const base = this.config.http.publicBaseUrl.replace(/\/$/, '');
    return new Set([
      norm(spUrls(this.config, idp.public_id).acs),
      norm(`${base}${SAML_BASE}/acs/${idp.system_domain_id}/${idp.id}/`),
    ]);
  }

  private trustedCertificates(idp: IdentityProviderEntity, xml: string): string[] {
    if (typeof idp.settings.idp_x509cert === 'string') return [idp.settings.idp_x509cert];
    const fp = idp.settings.cert_fingerprint;
    if (typeof fp !== 'string') return [];
    const algorithm = String(idp.settings.cert_fingerprint_algorithm ?? DIGEST_ALGORITHMS[0]);
    return embeddedCertificates(xml)
      .map((t) => parseCertificate(t))
      .filter((c) => c !== null && fingerprintOf(c, algorithm) === fp)
      .map((c) => c!.toString());
  }

  /**
   * node-saml (with xml-crypto, xml-encryption and their XML stack: about 15 MB resident and 80 ms of CPU to
   * load) is imported on the first SAML request, not at start: most deployments and every token check never
   * need it. Node keeps the module once loaded.
   */
  private async saml(idp: IdentityProviderEntity, cache: SamlRequestCache, certs: string[]): Promise<SAML> {
    const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
    const s = idp.settings;
    const u = spUrls(this.config, idp.public_id);
    const key = idp.sp_private_key_sealed ? this.idps.unseal(idp.sp_private_key_sealed) : undefined;
    const options: SamlConfig = {
      idpCert: certs,
      issuer: u.entityId,
      audience: u.entityId,
      callbackUrl: u.acs,
      entryPoint: typeof s.idp_sso_post_url === 'string' ? s.idp_sso_post_url : undefined,
      logoutUrl: typeof s.idp_sls_redirect_url === 'string' ? s.idp_sls_redirect_url : undefined,
      identifierFormat: NAME_ID_EMAIL,
      wantAssertionsSigned: s.want_assertions_signed !== false,
      wantAuthnResponseSigned: s.want_messages_signed === true,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      validateInResponseTo:
        s.allow_idp_initiated === true ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      cacheProvider: cache,
      disableRequestedAuthnContext: true,
      ...(s.authn_requests_signed === true && key
        ? {
            privateKey: key,
            signatureAlgorithm: signingAlgorithm(s),
            publicCert: idp.sp_certificate ?? undefined,
          }
        : {}),
      ...(s.name_id_encrypted === true && key ? { decryptionPvk: key } : {}),
    };
    return new SAML(options);
  }
}

const norm = (u: string) => u.replace(/\/+$/, '');

function pick(attributes: Record<string, string[]>, names: string[]): string | null {
  for (const n of names) {
    const v = attributes[n]?.find((x) => x.trim());
    if (v) return v.trim().slice(0, 200);
  }
  return null;
}
