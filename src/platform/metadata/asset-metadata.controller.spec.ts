import { jest } from '@jest/globals';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import { AssetsErrors } from '../assets/assets.errors.js';
import { controllerSpec, type ControllerSpec } from '../../../test/utils/controller-spec.js';
import { AssetMetadataController } from './asset-metadata.controller.js';
import { AssetMetadataService } from './asset-metadata.service.js';

const ASSETS = '/API/metadata/v1/assets';
const ASSET = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const VIEW = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const asset = { label: 'Asset', ids: [ASSET], notFound: () => AssetsErrors.NOT_FOUND() };
const values = { title: { field_values: [{ value: 'Sunset' }] } };

describe('AssetMetadataController (HTTP layer, faked service)', () => {
  let s: ControllerSpec<'writer'>;
  const service = {
    get: jest.fn(async () => ({ object_id: ASSET })),
    put: jest.fn(async () => ({ object_id: ASSET })),
  };

  beforeAll(async () => {
    s = await controllerSpec({
      controllers: [AssetMetadataController],
      providers: [{ provide: AssetMetadataService, useValue: service }],
      callers: { writer: { roles: ['can_read_assets', 'can_write_assets'] } },
      entities: { [ASSET_ACCESS.read]: asset, [ASSET_ACCESS.write]: asset },
    });
  });
  afterAll(() => s.close());
  beforeEach(() => jest.clearAllMocks());

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
    const res = await s.http
      .put(`${ASSETS}/${ASSET}/views/${VIEW}/`)
      .set(s.as('writer'))
      .send(sent)
      .expect(400);
    expect(Object.keys(res.body.errors as object)).toEqual(fields);
    expect(service.put).not.toHaveBeenCalled();
  });

  it('another domain’s asset or a malformed asset id is a 404 “Asset not found”; a malformed view id “View not found”', async () => {
    for (const [who, id] of [
      ['otherAdmin', ASSET],
      ['admin', 'nonsense'],
    ] as const) {
      const res = await s.http.get(`${ASSETS}/${id}/views/${VIEW}/`).set(s.as(who)).expect(404);
      expect(res.body).toEqual({ errors: ['Asset not found'] });
    }
    const res = await s.http.get(`${ASSETS}/${ASSET}/views/nonsense/`).set(s.as('admin')).expect(404);
    expect(res.body).toEqual({ errors: ['View not found'] });
    expect(service.get).not.toHaveBeenCalled();
  });
});
