import { ConfigError, readBaseConfig, type BaseConfig } from '../base/config/config.js';
import type { ConfigNamespace, ConfigOf } from '../base/config/namespace.js';
import { MAIL_CONFIG } from '../delivery/mail/mail-config.js';
import { WEBHOOK_CONFIG } from '../delivery/webhooks/webhook-config.js';
import { AUDIT_CONFIG } from '../delivery/audit/audit-config.js';
import { METRICS_CONFIG } from '../delivery/metrics/metrics-config.js';
import { LOCKOUT_CONFIG } from '../accounts/lockout/lockout-config.js';
import { PASSWORDS_CONFIG } from '../accounts/passwords/passwords-config.js';
import {
  BOOTSTRAP_CONFIG,
  DOMAIN_SCHEDULE_CONFIG,
} from '../accounts/system-domains/system-domains-config.js';
import { REGISTRATION_CONFIG } from '../sign-in/onboarding/registration-config.js';
import { MARKETPLACE_CONFIG } from '../sign-in/marketplace/marketplace-config.js';
import { DNS_CONFIG } from '../sign-in/identity-providers/dns-config.js';
import { FEDERATION_CONFIG } from '../sign-in/federation/federation-config.js';
import { PASSKEYS_CONFIG } from '../sign-in/passkeys/passkeys-config.js';
import { FILES_CONFIG } from '../platform/files/files-config.js';

/** Every feature's configuration namespace: a start reads and checks them all (loadConfig). */
export const FEATURE_CONFIGS = [
  BOOTSTRAP_CONFIG,
  MAIL_CONFIG,
  PASSWORDS_CONFIG,
  WEBHOOK_CONFIG,
  REGISTRATION_CONFIG,
  DOMAIN_SCHEDULE_CONFIG,
  AUDIT_CONFIG,
  METRICS_CONFIG,
  MARKETPLACE_CONFIG,
  FILES_CONFIG,
  DNS_CONFIG,
  FEDERATION_CONFIG,
  PASSKEYS_CONFIG,
  LOCKOUT_CONFIG,
] as const;

type Namespaces<T extends readonly ConfigNamespace[]> = { [N in T[number] as N['key']]: ConfigOf<N> };

/** The whole configuration: the base settings and each feature's namespace under its key. */
export type AppConfig = BaseConfig & Namespaces<typeof FEATURE_CONFIGS>;

/** Reads and validates every variable, collecting all problems before failing (one message names them all). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const base = readBaseConfig(env, problems);
  const config: Record<string, unknown> = { ...base };
  for (const ns of FEATURE_CONFIGS) config[ns.key] = ns.load(env, problems, base);
  if (problems.length > 0) throw new ConfigError(problems);
  return config as unknown as AppConfig;
}
