import { jest } from '@jest/globals';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import { AssetsErrors } from '../assets/assets.errors.js';
import {
  expectFieldErrors,
  expectNotFound,
  useControllerSpec,
} from '../../../test/utils/controller-spec-suite.js';
import { AssetMetadataController } from './asset-metadata.controller.js';
import { AssetMetadataService } from './asset-metadata.service.js';

const ASSETS = '/API/metadata/v1/assets';
const ASSET = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const VIEW = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const asset = { label: 'Asset', ids: [ASSET], notFound: () => AssetsErrors.NOT_FOUND() };
const values = { title: { field_values: [{ value: 'Sunset' }] } };

describe('AssetMetadataController (HTTP layer, faked service)', () => {
  const service = {
    get: jest.fn(async () => ({ object_id: ASSET })),
    put: jest.fn(async () => ({ object_id: ASSET })),
  };
  const s = useControllerSpec({
    controllers: [AssetMetadataController],
    providers: [{ provide: AssetMetadataService, useValue: service }],
    callers: { writer: { roles: ['can_read_assets', 'can_write_assets'] } },
    entities: { [ASSET_ACCESS.read]: asset, [ASSET_ACCESS.write]: asset },
  });

  it('needs a token (401), can_read_assets to read and can_write_assets to write (403)', async () => {
    await s.http.get(`${ASSETS}/${ASSET}/views/${VIEW}/`).expect(401);
    await s.http.get(`${ASSETS}/${ASSET}/views/${VIEW}/`).set(s.as('user')).expect(403);
    await s.http.get(`${ASSETS}/${ASSET}/views/${VIEW}/`).set(s.as('oauth')).expect(200);
    const res = await s.http
      .put(`${ASSETS}/${ASSET}/views/${VIEW}/`)
      .set(s.as('oauth'))
      .send({ metadata_values: values })
      .expect(403);
    expect(res.body).toEqual({ errors: ["The token's scopes do not cover: can_write_assets"] });
    expect(service.put).not.toHaveBeenCalled();
  });

  it('passes the caller, both ids and the values to the service', async () => {
    await s.http
      .put(`${ASSETS}/${ASSET}/views/${VIEW}/`)
      .set(s.as('writer'))
      .send({ metadata_values: values })
      .expect(200);
    expect(service.put).toHaveBeenCalledWith(s.callers.writer, ASSET, VIEW, values);
  });

  it.each([
    [{}, ['metadata_values']],
    [{ metadata_values: 'title=Sunset' }, ['metadata_values']],
    [
      { metadata_values: { title: { field_values: [{ value: 'a\u0000' }] } } },
      ['metadata_values.title.field_values.0.value'],
    ],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    const put = s.http.put(`${ASSETS}/${ASSET}/views/${VIEW}/`).set(s.as('writer')).send(sent);
    await expectFieldErrors(put, fields, 'in order');
    expect(service.put).not.toHaveBeenCalled();
  });

  it('another domain’s asset or a malformed asset id is a 404 “Asset not found”; a malformed view id “View not found”', async () => {
    const hidden = [
      ['otherAdmin', ASSET],
      ['admin', 'nonsense'],
    ] as const;
    await expectNotFound(s, hidden, 'Asset not found', (id) => [
      s.http.get(`${ASSETS}/${id}/views/${VIEW}/`),
    ]);
    await expectNotFound(s, [['admin', 'nonsense']], 'View not found', (id) => [
      s.http.get(`${ASSETS}/${ASSET}/views/${id}/`),
    ]);
    expect(service.get).not.toHaveBeenCalled();
  });
});
