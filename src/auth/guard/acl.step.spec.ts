import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { guardContext } from '../../../test/utils/guard-context.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import { AclStep } from './acl.step.js';

describe('AclStep', () => {
  it('does nothing for a route that names no entity', async () => {
    const require = jest.fn(async () => undefined);
    await new AclStep({ require }).run(guardContext());
    expect(require).not.toHaveBeenCalled();
  });

  it('asks the access service about the entity named by the path parameter', async () => {
    const require = jest.fn(async () => undefined);
    const id = randomUUID();
    const ctx = guardContext({
      policy: { access: { entity: 'app', param: 'app_id' } },
      params: { app_id: id },
    });
    await new AclStep({ require }).run(ctx);
    expect(require).toHaveBeenCalledWith(ctx.auth, 'app', [id]);
  });

  it('a malformed id goes to the access service too (which answers it as unknown); its refusal passes through', async () => {
    const require = jest.fn(async () => {
      throw ApiError.notFound('App');
    });
    const step = new AclStep({ require });
    const policy = { access: { entity: 'app' as const, param: 'app_id' } };
    const ctx = guardContext({ policy, params: { app_id: 'nope' } });
    await expect(step.run(ctx)).rejects.toMatchObject({ status: 404 });
    expect(require).toHaveBeenCalledWith(ctx.auth, 'app', ['nope']);
    await expect(step.run(guardContext({ policy, params: { app_id: randomUUID() } }))).rejects.toMatchObject({
      status: 404,
    });
  });
});
