import { imports, sourceFiles } from '../../../test/utils/source-tree.js';

/**
 * Every sign-in goes through the SignInAuthority (src/sign-in/login/sign-in-authority.ts): it alone turns what an
 * authenticator asserts into a session. This reads the source tree as text, so a new authenticator that mints
 * a sign-in token on its own, or reaches the authority's private issuing half, fails here before any review.
 */
const FILES = sourceFiles();

/**
 * Folders of the authenticators a tenant controls (a domain's SAML IdP, its directory, its OpenID provider) and
 * of what they share (federation/: the admission through `vouch`).
 */
const TENANT_AUTHENTICATORS = [
  'sign-in/identity-providers/',
  'sign-in/directories/',
  'sign-in/oidc-providers/',
  'sign-in/federation/',
];

describe('one sign-in authority turns an asserted identity into a session', () => {
  it('reads the source tree', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(FILES.some((f) => f.path === 'sign-in/login/sign-in-authority.ts')).toBe(true);
  });

  it('only the authority’s issuing half asks the mint for a sign-in token (LOGIN or TEMP)', () => {
    const minters = FILES.filter(
      (f) => imports(f.text, /(^|\/)credential-mint\.service\.js$/) && /\.signIn\(/.test(f.text),
    ).map((f) => f.path);
    expect(minters).toEqual(['sign-in/login/sign-in.service.ts']);
  });

  it('only the authority (and the module that provides it) reaches its issuing half', () => {
    const reaching = FILES.filter((f) => imports(f.text, /(^|\/)sign-in\.service\.js$/)).map((f) => f.path);
    expect(reaching.sort()).toEqual(['sign-in/login/login.module.ts', 'sign-in/login/sign-in-authority.ts']);
  });

  it('a tenant’s authenticator only asks the authority to vouch, never for a service sign-in', () => {
    const tenantFiles = FILES.filter((f) => TENANT_AUTHENTICATORS.some((d) => f.path.startsWith(d)));
    expect(tenantFiles.some((f) => /\.vouch\(/.test(f.text))).toBe(true);
    const offenders = tenantFiles
      .filter((f) =>
        /\.(serviceSession|pendingSession|domainToken|signInToDomain)\(|signIns?\.signIn\(/.test(f.text),
      )
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it('only the authority tells the mint that a tenant vouched (its issuing half, and the completion of a sign-in it began)', () => {
    const marking = FILES.filter(
      (f) => !f.path.startsWith('credentials/mint/') && /\btenantVouched\b/.test(f.text),
    ).map((f) => f.path);
    expect(marking.sort()).toEqual([
      'sign-in/login/sign-in-authority.ts',
      'sign-in/login/sign-in.service.ts',
    ]);
  });

  it('every tenant authenticator ends in the authority: each folder asks it to vouch or for a tenant session', () => {
    for (const dir of TENANT_AUTHENTICATORS) {
      const texts = FILES.filter((f) => f.path.startsWith(dir)).map((f) => f.text);
      expect([dir, texts.some((t) => /\.(vouch|tenantSession|admit)\(/.test(t))]).toEqual([dir, true]);
    }
  });
});
