import { loadConfig } from '../../app/config.js';
import { expectConfigRefused } from '../../../test/utils/fakes/config.js';
import { loadMarketplaceConfig } from './marketplace-config.js';

describe('marketplace configuration', () => {
  it('none by default; one cloud per MARKETPLACE_<CLOUD>_* block, named in lower case', () => {
    expect(loadConfig({}).marketplace).toEqual({
      clouds: {},
      nonceTtlSeconds: 3600,
      clockToleranceSeconds: 30,
    });
    const problems: string[] = [];
    const c = loadMarketplaceConfig(
      {
        MARKETPLACE_VENDOR_A_ISSUER: 'https://a.example/',
        MARKETPLACE_VENDOR_A_AUDIENCE: 'portcullis',
        MARKETPLACE_VENDOR_A_JWKS_URL: 'https://a.example/jwks.json',
        MARKETPLACE_VENDOR_B_ISSUER: 'b',
        MARKETPLACE_VENDOR_B_AUDIENCE: 'p',
        MARKETPLACE_VENDOR_B_PUBLIC_KEY_FILE: '/etc/b.pem',
        MARKETPLACE_VENDOR_B_ALGORITHMS: 'PS256, ES384',
        MARKETPLACE_NONCE_TTL: '600',
      },
      problems,
    );
    expect(problems).toEqual([]);
    expect(Object.keys(c.clouds)).toEqual(['vendor_a', 'vendor_b']);
    expect(c.clouds.vendor_a).toMatchObject({
      jwksUrl: 'https://a.example/jwks.json',
      algorithms: ['RS256', 'ES256'],
    });
    expect(c.clouds.vendor_b).toMatchObject({ publicKeyFile: '/etc/b.pem', algorithms: ['PS256', 'ES384'] });
    expect(c.nonceTtlSeconds).toBe(600);
  });

  it('names incomplete clouds, several key sources, symmetric or unknown algorithms', () => {
    expectConfigRefused(
      {
        MARKETPLACE_X_ISSUER: 'x',
        MARKETPLACE_Y_ISSUER: 'y',
        MARKETPLACE_Y_AUDIENCE: 'y',
        MARKETPLACE_Y_JWKS_URL: 'https://y.example/jwks',
        MARKETPLACE_Y_PUBLIC_KEY_FILE: '/y.pem',
        MARKETPLACE_Z_ISSUER: 'z',
        MARKETPLACE_Z_AUDIENCE: 'z',
        MARKETPLACE_Z_JWKS_URL: 'ftp://z.example/jwks',
        MARKETPLACE_Z_ALGORITHMS: 'HS256,none',
      },
      'MARKETPLACE_X_AUDIENCE is required',
      'marketplace x needs exactly one of',
      'marketplace y needs exactly one of',
      'MARKETPLACE_Z_JWKS_URL must use https: or http:',
      'MARKETPLACE_Z_ALGORITHMS must list some of',
    );
  });
});
