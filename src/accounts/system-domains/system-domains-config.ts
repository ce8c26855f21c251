import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** The first super administrator, made at the first start (bootstrap.service.ts). */
export const BOOTSTRAP_CONFIG = configNamespace(
  'bootstrap',
  (env, problems): { adminEmail: string; adminPassword: string | null } => {
    const { str } = envReader(env, problems);
    const adminEmail = str('BOOTSTRAP_ADMIN_EMAIL') ?? 'admin@localhost';
    if (!/^[^@\s]+@[^@\s]+$/.test(adminEmail))
      problems.push('BOOTSTRAP_ADMIN_EMAIL must be an email address');
    const adminPassword = str('BOOTSTRAP_ADMIN_PASSWORD');
    if (adminPassword !== null && adminPassword.length < 8) {
      problems.push('BOOTSTRAP_ADMIN_PASSWORD must be at least 8 characters');
    }
    return { adminEmail: adminEmail.toLowerCase(), adminPassword };
  },
);

/** Domain status dates (domain-schedule.worker.ts): how often passed dates are recorded. */
export const DOMAIN_SCHEDULE_CONFIG = configNamespace(
  'domainSchedule',
  (env, problems): { intervalMs: number } => {
    const { int } = envReader(env, problems);
    return { intervalMs: int('DOMAIN_SCHEDULE_INTERVAL_MS', 15_000, 10, 3_600_000) };
  },
);
