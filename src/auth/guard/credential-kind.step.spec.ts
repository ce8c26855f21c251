import { ApiError } from '../../base/common/errors/api-error.js';
import { guardContext } from '../../../test/utils/guard-context.js';
import { CredentialKindStep } from './credential-kind.step.js';
import { DEFAULT_KINDS } from '../../base/common/auth/authenticated.decorator.js';

describe('CredentialKindStep', () => {
  const step = new CredentialKindStep();

  it('accepts LOGIN, PAT and OAUTH by default', () => {
    for (const kind of DEFAULT_KINDS) expect(() => step.run(guardContext({ auth: { kind } }))).not.toThrow();
  });

  it('refuses a kind the route does not name with a 401 (a new kind is refused everywhere)', () => {
    expect(() => step.run(guardContext({ auth: { kind: 'TEMP' } }))).toThrow(
      expect.objectContaining({ status: 401, errors: ['This credential cannot be used here'] }),
    );
    expect(() => step.run(guardContext({ auth: { kind: 'PAT' }, policy: { kinds: ['LOGIN'] } }))).toThrow(
      expect.objectContaining({ status: 401 }),
    );
  });

  it('refuses with the route’s own answer where it names one (kindRefused)', () => {
    const kindRefused = () => new ApiError(403, ['Only a signed-in user session can approve applications']);
    expect(() =>
      step.run(guardContext({ auth: { kind: 'OAUTH' }, policy: { kinds: ['LOGIN'], kindRefused } })),
    ).toThrow(expect.objectContaining({ status: 403 }));
    expect(() =>
      step.run(guardContext({ auth: { kind: 'LOGIN' }, policy: { kinds: ['LOGIN'], kindRefused } })),
    ).not.toThrow();
    expect(() =>
      step.run(guardContext({ auth: { kind: 'TEMP' }, policy: { kinds: ['LOGIN'], kindRefused } })),
    ).toThrow(expect.objectContaining({ status: 401 }));
  });

  it('accepts a kind the route names', () => {
    expect(() =>
      step.run(guardContext({ auth: { kind: 'TEMP' }, policy: { kinds: ['TEMP'] } })),
    ).not.toThrow();
  });
});
