/** OAuth rows, as the grant and token endpoint specs build them. */
import type { RefreshTokenEntity } from '../../../src/base/model/refresh-token.entity.js';
import { NOW } from './fixtures.js';

/** The live refresh token of grant g1: app1's for u1 in d1, scopes read and write, unused, a minute left. */
export const refreshTokenRow = (over: Partial<RefreshTokenEntity> = {}) =>
  ({
    grant_id: 'g1',
    app_id: 'app1',
    user_id: 'u1',
    system_domain_id: 'd1',
    scopes: ['read', 'write'],
    is_mfa_authenticated: false,
    used_at: null,
    revoked_at: null,
    expires: new Date(NOW.getTime() + 60_000),
    date_created: new Date(NOW.getTime() - 60_000),
    ...over,
  }) as RefreshTokenEntity;
