/** The actions the trail records (docs/operations.md, Audit trail). */
export const AUDIT_ACTIONS = [
  'signin.success',
  'signin.failure',
  'signin.locked',
  'signin.second_factor_owed',
  'mfa.enrolled',
  'mfa.removed',
  'password.changed',
  'password.reset',
  'token.minted',
  'token.revoked',
  'app.created',
  'app.changed',
  'app.deleted',
  'app.secret_rotated',
  'user.created',
  'user.changed',
  'user.deleted',
  'user.unlocked',
  'invitation.link_created',
  'invitation.purged',
  'group.changed',
  'domain.changed',
  'identity_provider.changed',
  'webhook.changed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
