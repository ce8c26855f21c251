import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** Per-account guessing defence (src/accounts/lockout/guessing-defence.ts); separate from rate limiting. */
export interface LockoutConfig {
  /** Failed attempts at one factor before the account's lock for that factor starts. */
  threshold: number;
  /** The first lock; it doubles with every further failure up to maxSeconds. */
  baseSeconds: number;
  maxSeconds: number;
  /** The count is forgotten after this long without a failure. */
  resetSeconds: number;
}

export const LOCKOUT_CONFIG = configNamespace('lockout', (env, problems): LockoutConfig => {
  const { int } = envReader(env, problems);
  const lockout = {
    threshold: int('LOCKOUT_THRESHOLD', 5, 1, 1000),
    baseSeconds: int('LOCKOUT_BASE_SECONDS', 60, 1, 86_400),
    maxSeconds: int('LOCKOUT_MAX_SECONDS', 3600, 1, 7 * 86_400),
    resetSeconds: int('LOCKOUT_RESET_SECONDS', 86_400, 60, 30 * 86_400),
  };
  if (lockout.maxSeconds < lockout.baseSeconds) {
    problems.push('LOCKOUT_MAX_SECONDS must not be below LOCKOUT_BASE_SECONDS');
  }
  return lockout;
});
