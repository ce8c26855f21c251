import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const InvitationsErrors = defineErrors('invitations', {
  NOT_FOUND: message(404, 'Invitation not found'),
  /** 419: the link was valid once but is no more (expired, used or withdrawn), as the spec's clients expect. */
  LINK_EXPIRED: message(419, 'Invitation expired or already used'),
  ALREADY_MEMBER: message(409, 'This user is already a member of this domain'),
  INVITED_CONCURRENTLY: message(409, 'This email was invited concurrently; try again'),
  ACCOUNT_DEACTIVATED: message(400, 'This account is deactivated'),
  GROUP_NOT_FOUND: message(404, 'Group not found'),
  LINK_ADMIN_ONLY: message(403, 'Only an administrator may make a link that grants administration'),
  LINK_EXCEEDS_ROLES: {
    status: 403,
    body: (roles: string[]) => [`A link cannot grant roles you do not hold: ${roles.join(', ')}`],
  },
  INVALID: fields(),
});
