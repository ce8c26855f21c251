import { guardContext } from '../../../test/utils/guard-context.js';
import { RolesScopesStep } from './roles-scopes.step.js';

describe('RolesScopesStep', () => {
  const step = new RolesScopesStep();
  const refused = (status: number, message: string) => expect.objectContaining({ status, errors: [message] });

  it('administrator flags', () => {
    expect(() => step.run(guardContext({ policy: { admin: true } }))).toThrow(
      refused(403, 'Requires an administrator'),
    );
    expect(() => step.run(guardContext({ policy: { admin: true }, auth: { isAdmin: true } }))).not.toThrow();
    expect(() => step.run(guardContext({ policy: { superAdmin: true }, auth: { isAdmin: true } }))).toThrow(
      refused(403, 'Requires a super administrator'),
    );
  });

  it('the user must hold every role the route needs', () => {
    const policy = { roles: ['can_read_apps' as const, 'can_write_apps' as const] };
    expect(() => step.run(guardContext({ policy, roles: ['can_read_apps'] }))).toThrow(
      refused(403, 'Missing role: can_write_apps'),
    );
    expect(() =>
      step.run(guardContext({ policy, roles: ['can_read_apps', 'can_write_apps'] })),
    ).not.toThrow();
  });

  it('an OAuth token’s scopes must bundle the roles; a role-less route needs user_impersonation', () => {
    const oauth = (scopes: string[], policy = {}) =>
      guardContext({ policy, roles: ['can_read_assets', 'can_read_apps'], auth: { kind: 'OAUTH', scopes } });
    expect(() => step.run(oauth(['assets:read'], { roles: ['can_read_assets'] }))).not.toThrow();
    expect(() => step.run(oauth(['assets:read'], { roles: ['can_read_apps'] }))).toThrow(
      refused(403, "The token's scopes do not cover: can_read_apps"),
    );
    expect(() => step.run(oauth(['user_impersonation'], { roles: ['can_read_apps'] }))).not.toThrow();
    expect(() => step.run(oauth(['assets:read']))).toThrow(
      refused(403, 'This route needs the user_impersonation scope'),
    );
    expect(() => step.run(oauth(['assets:read'], { anyScope: true }))).not.toThrow();
    expect(() => step.run(oauth(['assets:read'], { scopes: ['assets:write'], anyScope: true }))).toThrow(
      refused(403, 'Missing scope: assets:write'),
    );
  });

  it('OpenID Connect’s scopes alone pass only a route that names them: not who-am-I, not a role-less route', () => {
    const oauth = (scopes: string[], policy = {}) =>
      guardContext({ policy, roles: ['can_read_assets'], auth: { kind: 'OAUTH', scopes } });
    const identity = ['openid', 'profile', 'email'];
    expect(() => step.run(oauth(identity, { anyScope: true }))).toThrow(
      refused(403, 'This route needs the user_impersonation scope'),
    );
    expect(() => step.run(oauth(['openid'], { roles: ['can_read_assets'] }))).toThrow(
      refused(403, "The token's scopes do not cover: can_read_assets"),
    );
    expect(() => step.run(oauth(['openid'], { scopes: ['openid'], anyScope: true }))).not.toThrow();
    expect(() => step.run(oauth(['profile'], { scopes: ['openid'], anyScope: true }))).toThrow(
      refused(403, 'Missing scope: openid'),
    );
    // with an API scope beside them, who-am-I answers as before
    expect(() => step.run(oauth(['openid', 'assets:read'], { anyScope: true }))).not.toThrow();
    // user_impersonation still needs the scope a route names
    expect(() => step.run(oauth(['user_impersonation'], { scopes: ['openid'] }))).toThrow(
      refused(403, 'Missing scope: openid'),
    );
  });
});
