import { jest } from '@jest/globals';
import type { Request } from 'express';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import type { ClientRegistry } from '../../credentials/apps/client-registry.js';
import { ClientAuthService } from './client-auth.service.js';

const CONFIDENTIAL = '11111111-1111-4111-8111-111111111111';
const PUBLIC = '22222222-2222-4222-8222-222222222222';
const PAT = '33333333-3333-4333-8333-333333333333';
const SECRET = 's3cret:with+specials é';

const apps: Record<string, AppEntity> = {
  [CONFIDENTIAL]: {
    id: CONFIDENTIAL,
    type: 'OAUTH',
    oauth_client_type: 'confidential',
    client_secret_hash: sha256Hex(SECRET),
  } as AppEntity,
  [PUBLIC]: { id: PUBLIC, type: 'OAUTH', oauth_client_type: 'public', client_secret_hash: null } as AppEntity,
  [PAT]: { id: PAT, type: 'PAT' } as AppEntity,
};

function setup() {
  const clients = { find: jest.fn(async (id: string) => apps[id] ?? null) };
  return { service: new ClientAuthService(clients as unknown as ClientRegistry), clients };
}

const req = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as Request;
/** RFC 6749 §2.3.1: each part form-urlencoded, then base64. */
const basic = (id: string, secret: string, scheme = 'Basic') => {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `${scheme} ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
};
const oauthError = (error: string, description: string, status = error === 'invalid_client' ? 401 : 400) =>
  expect.objectContaining({ error, description, status });

describe('ClientAuthService.authenticate', () => {
  it('a confidential client with its secret in the form: authenticated', async () => {
    const { service } = setup();
    const r = req();
    const out = await service.authenticate(r, { client_id: CONFIDENTIAL, client_secret: SECRET });
    expect(out).toEqual({ app: apps[CONFIDENTIAL], authenticated: true });
    // the error filter can answer a browser app's failure with CORS headers
    expect((r as Request & { oauthClient?: AppEntity }).oauthClient).toBe(apps[CONFIDENTIAL]);
  });

  it('HTTP Basic: the scheme name in any case, each part form-urlencoded before base64', async () => {
    const { service } = setup();
    for (const scheme of ['Basic', 'basic', 'BASIC']) {
      const out = await service.authenticate(req(basic(CONFIDENTIAL, SECRET, scheme)), {});
      expect(out.authenticated).toBe(true);
    }
    // the same client_id repeated in the form is fine
    await expect(
      service.authenticate(req(basic(CONFIDENTIAL, SECRET)), { client_id: CONFIDENTIAL }),
    ).resolves.toMatchObject({ authenticated: true });
  });

  it.each([
    ['without a colon', `Basic ${Buffer.from('no-colon').toString('base64')}`],
    ['with broken percent-encoding', `Basic ${Buffer.from(`${CONFIDENTIAL}:%E0%A4%A`).toString('base64')}`],
  ])('Basic %s: invalid_client (malformed)', async (_w, header) => {
    await expect(setup().service.authenticate(req(header), {})).rejects.toEqual(
      oauthError('invalid_client', 'Malformed Basic credentials'),
    );
  });

  it('a Bearer token is not client authentication: the form’s client_id is what counts', async () => {
    const { service } = setup();
    await expect(
      service.authenticate(req('Bearer abc.def.ghi'), { client_id: CONFIDENTIAL }),
    ).rejects.toEqual(oauthError('invalid_client', 'Client authentication required'));
  });

  it('a secret in Basic and in the form: invalid_request, even when both are right', async () => {
    await expect(
      setup().service.authenticate(req(basic(CONFIDENTIAL, SECRET)), { client_secret: SECRET }),
    ).rejects.toEqual(
      oauthError(
        'invalid_request',
        'Use one client authentication method: HTTP Basic or client_secret in the form, not both',
      ),
    );
  });

  it('Basic for one client, client_id of another in the form: invalid_request', async () => {
    await expect(
      setup().service.authenticate(req(basic(CONFIDENTIAL, SECRET)), { client_id: PUBLIC }),
    ).rejects.toEqual(
      oauthError('invalid_request', 'client_id in the form differs from the Basic credentials'),
    );
  });

  it.each([
    ['no client_id', {}, 'client_id is required'],
    ['a client_id that is not a UUID', { client_id: 'photos' }, 'Unknown client'],
    ['an unknown client_id', { client_id: '00000000-0000-4000-8000-000000000000' }, 'Unknown client'],
  ])('%s: invalid_client', async (_w, form: Record<string, string>, description) => {
    const s = setup();
    await expect(s.service.authenticate(req(), form)).rejects.toEqual(
      oauthError('invalid_client', description),
    );
    if (form.client_id === 'photos') expect(s.clients.find).not.toHaveBeenCalled();
  });

  it.each([
    ['no secret', undefined, 'Client authentication required'],
    ['an empty secret (counts as none)', '', 'Client authentication required'],
    ['a wrong secret', 'wrong', 'Client authentication failed'],
  ])('a confidential client with %s: invalid_client', async (_w, secret, description) => {
    await expect(
      setup().service.authenticate(req(), { client_id: CONFIDENTIAL, client_secret: secret }),
    ).rejects.toEqual(oauthError('invalid_client', description));
  });

  it('a public client names itself and sends no secret: not authenticated', async () => {
    await expect(setup().service.authenticate(req(), { client_id: PUBLIC })).resolves.toEqual({
      app: apps[PUBLIC],
      authenticated: false,
    });
  });

  it.each([
    ['in the form', req(), { client_id: PUBLIC, client_secret: 'x' }],
    ['as Basic with an empty secret', req(basic(PUBLIC, '')), {}],
  ])('a public client sending a secret %s: invalid_client', async (_w, r, form) => {
    await expect(setup().service.authenticate(r, form)).rejects.toEqual(
      oauthError('invalid_client', 'Public clients do not authenticate with a secret'),
    );
  });

  it('a service-account app: unauthorized_client, whatever it sends', async () => {
    await expect(
      setup().service.authenticate(req(), { client_id: PAT, client_secret: 'x' }),
    ).rejects.toMatchObject({
      error: 'unauthorized_client',
      status: 400,
    });
  });
});
