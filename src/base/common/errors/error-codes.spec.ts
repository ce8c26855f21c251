import { AppsErrors } from '../../../credentials/apps/apps.errors.js';
import { InvitationsErrors } from '../../../sign-in/invitations/invitations.errors.js';
import { AuthErrors } from '../auth/auth.errors.js';
import { ApiError } from './api-error.js';
import { defineErrors, fields, message } from './error-codes.js';

describe('error codes', () => {
  it('a catalogue makes ApiErrors that carry feature.CODE, the status and the body', () => {
    const E = defineErrors('thing', {
      GONE: message(410, 'It is gone'),
      BAD: fields(),
      COUNTED: { status: 409, body: (n: number) => [`${n} already`] },
    });
    expect(E.GONE()).toBeInstanceOf(ApiError);
    expect(E.GONE()).toMatchObject({ status: 410, errors: ['It is gone'], code: 'thing.GONE' });
    expect(E.BAD({ name: 'must not be blank' })).toMatchObject({
      status: 400,
      errors: { name: 'must not be blank' },
    });
    expect(E.COUNTED(3)).toMatchObject({ status: 409, errors: ['3 already'], code: 'thing.COUNTED' });
  });

  it('features declare theirs: a few of them, as the surfaces will see them', () => {
    expect(AppsErrors.NOT_FOUND()).toMatchObject({
      status: 404,
      code: 'apps.NOT_FOUND',
      errors: ['App not found'],
    });
    expect(AuthErrors.MISSING_ROLE(['can_read_apps'])).toMatchObject({
      status: 403,
      code: 'auth.MISSING_ROLE',
      errors: ['Missing role: can_read_apps'],
    });
    expect(InvitationsErrors.LINK_EXPIRED()).toMatchObject({ status: 419, code: 'invitations.LINK_EXPIRED' });
  });
});
