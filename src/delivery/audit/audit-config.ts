import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** Audit trail (src/delivery/audit): how long records are kept, how often the purge looks. */
export interface AuditConfig {
  retentionDays: number;
  purgeIntervalMs: number;
}

export const AUDIT_CONFIG = configNamespace('audit', (env, problems): AuditConfig => {
  const { int } = envReader(env, problems);
  return {
    retentionDays: int('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    purgeIntervalMs: int('AUDIT_PURGE_INTERVAL_MS', 3_600_000, 10, 86_400_000),
  };
});
