import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** Password reset (src/accounts/passwords): how long a mailed reset link works. */
export const PASSWORDS_CONFIG = configNamespace('passwords', (env, problems): { resetTtlSeconds: number } => {
  const { int } = envReader(env, problems);
  return { resetTtlSeconds: int('PASSWORD_RESET_TTL', 3600, 300, 7 * 24 * 3600) };
});
