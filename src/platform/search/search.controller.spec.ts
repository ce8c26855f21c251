import { jest } from '@jest/globals';
import { expectFieldErrors, useControllerSpec } from '../../../test/utils/controller-spec-suite.js';
import { SearchController } from './search.controller.js';
import { SearchService } from './search.service.js';

const SEARCH = '/API/search/v1/search/';

describe('SearchController (HTTP layer, faked service)', () => {
  const service = { search: jest.fn(async () => ({ objects: [] })) };
  const s = useControllerSpec({
    controllers: [SearchController],
    providers: [{ provide: SearchService, useValue: service }],
    callers: { reader: { roles: ['can_read_assets'] } },
  });

  it('needs a token (401) and can_read_assets (403); an assets:read OAuth token searches', async () => {
    await s.http.post(SEARCH).send({}).expect(401);
    const res = await s.http.post(SEARCH).set(s.as('user')).send({}).expect(403);
    expect(res.body).toEqual({ errors: ['Missing role: can_read_assets'] });
    expect(service.search).not.toHaveBeenCalled();
    await s.http.post(SEARCH).set(s.as('oauth')).send({}).expect(200);
  });

  it('passes the caller, the parsed body, the query and the path to the service (200, not 201)', async () => {
    await s.http
      .post(SEARCH)
      .set(s.as('reader'))
      .send({ query: 'sunset', doc_types: ['assets'] })
      .expect(200);
    expect(service.search).toHaveBeenCalledWith(
      s.callers.reader,
      { query: 'sunset', doc_types: ['assets'] },
      expect.anything(),
      SEARCH,
    );
  });

  it.each([
    [{ query: 5 }, ['query']],
    [{ doc_types: ['nope'] }, ['doc_types']],
    [{ doc_types: 'assets' }, ['doc_types']],
    [{ query: 'a\u0000' }, ['query']],
  ])('refuses the body %j with 400 naming %j', async (sent, fields) => {
    await expectFieldErrors(s.http.post(SEARCH).set(s.as('reader')).send(sent), fields, 'in order');
    expect(service.search).not.toHaveBeenCalled();
  });

  it('a body that is not JSON is a 400 in the error shape', async () => {
    const res = await s.http
      .post(SEARCH)
      .set(s.as('reader'))
      .set('Content-Type', 'application/json')
      .send('{"query":')
      .expect(400);
    expect(res.body).toEqual({ errors: ['Malformed JSON body'] });
  });
});
