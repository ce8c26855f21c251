import { imports, sourceFiles } from '../../../test/utils/source-tree.js';

/**
 * Credential material is made in one place (CredentialMintService): the generators behind it are reachable
 * from nowhere else. This reads the source tree as text, so a new file that reaches for a generator fails
 * here before any review.
 */
const FILES = sourceFiles();
const inCredentials = (path: string) => path.startsWith('credentials/mint/');

describe('credential material is made only by the credentials module', () => {
  it('reads the source tree', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(FILES.some((f) => f.path === 'credentials/mint/credential-mint.service.ts')).toBe(true);
  });

  // no other file imports the token generator or the secret generator: the dependency rules hold that
  // (.dependency-cruiser.cjs, token-generators-only-in-the-mint, run by npm run deps:layers)

  it('only the token generator signs with the service keys', () => {
    const signers = FILES.filter(
      (f) =>
        !f.path.startsWith('base/keys/') &&
        imports(f.text, /signing-keys\.service\.js$/) &&
        /\.sign\(/.test(f.text),
    ).map((f) => f.path);
    expect(signers).toEqual(['credentials/mint/token-issuer.ts']);
  });

  it('no file that stores a client secret or a refresh token makes the secret itself', () => {
    const makers = FILES.filter(
      (f) =>
        !inCredentials(f.path) &&
        !f.path.startsWith('base/database/migrations/') &&
        /client_secret_hash\s*:|RefreshTokenEntity\)\.insert|into oauth_refresh_tokens/i.test(f.text) &&
        (/\b(generateSecret|randomBytes|randomUUID)\(/.test(f.text) || /node:crypto/.test(f.text)),
    ).map((f) => f.path);
    expect(makers).toEqual([]);
  });
});
