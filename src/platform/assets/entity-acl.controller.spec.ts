import { jest } from '@jest/globals';
import { useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { AclsController } from './acls.controller.js';
import { AclsService } from './acls.service.js';
import { ASSET_ACCESS } from './asset-access.js';
import { COLLECTION_ACCESS } from './collection-access.js';
import { CollectionAclsController } from './collection-acls.controller.js';
import { CollectionAclsService } from './collection-acls.service.js';

const ACLS = '/API/acls/v1';
const ASSET = '44444444-4444-4444-8444-444444444444';
const COLLECTION = '55555555-5555-4555-8555-555555555555';
const USER = '66666666-6666-4666-8666-666666666666';
const GROUP = '77777777-7777-4777-8777-777777777777';

/** One ACL service, faked: a new entry (201) unless told. */
function fakeAcls() {
  return {
    mine: jest.fn(async () => ({ permissions: ['read'] })),
    list: jest.fn(async () => ({ users: [], groups: [] })),
    get: jest.fn(async () => ({ permissions: ['read'] })),
    put: jest.fn(async () => ({ entry: { permissions: ['read'] }, created: true })),
    remove: jest.fn(async () => undefined),
  };
}

describe('the entity ACL family (assets and collections; HTTP layer, faked services)', () => {
  const assets = fakeAcls();
  const collections = fakeAcls();
  const asset = { label: 'Asset', ids: [ASSET] };
  const collection = { label: 'Collection', ids: [COLLECTION] };
  const s = useControllerSpec({
    controllers: [AclsController, CollectionAclsController],
    providers: [
      { provide: AclsService, useValue: assets },
      { provide: CollectionAclsService, useValue: collections },
    ],
    callers: {
      reader: { roles: ['can_read_assets', 'can_write_assets'] },
      collectionReader: { roles: ['can_read_collections', 'can_write_collections'] },
    },
    entities: {
      [ASSET_ACCESS.read]: asset,
      [ASSET_ACCESS['change-acl']]: asset,
      [COLLECTION_ACCESS.read]: collection,
      [COLLECTION_ACCESS['change-acl']]: collection,
    },
  });

  /** The administrator's PUT of an entry at `url`, granting read. */
  const grantRead = (url: string) =>
    s.http
      .put(url)
      .set(s.as('admin'))
      .send({ permissions: ['read'] });
  /** What the service was asked: the administrator's grant of read to `who`, propagated or not. */
  const granted = (id: string, kind: 'user' | 'group', who: string, propagate: boolean) =>
    [s.callers.admin, id, { kind, id: who }, ['read'], propagate] as const;

  it('each entity type gates on its own roles: the assets’ roles open no collection ACL and the reverse', async () => {
    await s.http.get(`${ACLS}/acl/assets/${ASSET}/`).expect(401);
    await s.http.get(`${ACLS}/acl/assets/${ASSET}/`).set(s.as('reader')).expect(200);
    const no = await s.http.get(`${ACLS}/acl/collections/${COLLECTION}/`).set(s.as('reader')).expect(403);
    expect(no.body).toEqual({ errors: ['Missing role: can_read_collections'] });
    await s.http.get(`${ACLS}/acl/collections/${COLLECTION}/`).set(s.as('collectionReader')).expect(200);
    await s.http.get(`${ACLS}/acl/assets/${ASSET}/`).set(s.as('collectionReader')).expect(403);
    expect(assets.list).toHaveBeenCalledTimes(1);
    expect(collections.list).toHaveBeenCalledTimes(1);
  });

  it('an entry’s PUT answers 201 when new and 200 when changed, for users and groups alike', async () => {
    const url = `${ACLS}/groups/${GROUP}/acl/collections/${COLLECTION}/`;
    await grantRead(url).expect(201);
    collections.put.mockResolvedValueOnce({ entry: { permissions: ['read'] }, created: false });
    await grantRead(url).expect(200);
    const user = `${ACLS}/users/${USER}/acl/assets/${ASSET}/`;
    await grantRead(user).expect(201);
    expect(assets.put).toHaveBeenCalledWith(...granted(ASSET, 'user', USER, false));
  });

  it('propagate is the collections’ flag: validated and passed there, not bound on the assets’ PUT', async () => {
    const coll = `${ACLS}/users/${USER}/acl/collections/${COLLECTION}/`;
    await grantRead(`${coll}?propagate=true`).expect(201);
    expect(collections.put).toHaveBeenCalledWith(...granted(COLLECTION, 'user', USER, true));
    await grantRead(`${coll}?propagate=maybe`).expect(400);
    const asset = `${ACLS}/groups/${GROUP}/acl/assets/${ASSET}/?propagate=true`;
    await grantRead(asset).expect(201);
    expect(assets.put).toHaveBeenCalledWith(...granted(ASSET, 'group', GROUP, false));
    expect(collections.put).toHaveBeenCalledTimes(1);
  });

  it('another tenant’s or an unknown entity, and a malformed principal id, are 404s; a bad body a 400', async () => {
    await s.http.get(`${ACLS}/acl/assets/${ASSET}/permissions/`).set(s.as('otherAdmin')).expect(404);
    await s.http.get(`${ACLS}/acl/collections/${ASSET}/`).set(s.as('admin')).expect(404);
    await s.http.get(`${ACLS}/users/not-a-uuid/acl/assets/${ASSET}/`).set(s.as('admin')).expect(404);
    const bad = `${ACLS}/users/${USER}/acl/assets/${ASSET}/`;
    await s.http.put(bad).set(s.as('admin')).send({ permissions: 'all' }).expect(400);
    await s.http.delete(bad).set(s.as('reader')).expect(204);
    expect(assets.remove).toHaveBeenCalledWith(s.callers.reader, ASSET, { kind: 'user', id: USER });
    expect(assets.put).not.toHaveBeenCalled();
    expect(assets.get).not.toHaveBeenCalled();
  });
});
