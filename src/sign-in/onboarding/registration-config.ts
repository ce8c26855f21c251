import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';
import { isUuid } from '../../base/common/validation/uuid.js';

/** Self-service registration (src/sign-in/onboarding): on/off, the template of new domains, how long a link works. */
export interface RegistrationConfig {
  enabled: boolean;
  templateDomainId: string | null;
  ttlSeconds: number;
}

export const REGISTRATION_CONFIG = configNamespace('registration', (env, problems): RegistrationConfig => {
  const { str, int, bool } = envReader(env, problems);
  const template = str('REGISTRATION_TEMPLATE_DOMAIN_ID');
  if (template !== null && !isUuid(template)) {
    problems.push('REGISTRATION_TEMPLATE_DOMAIN_ID must be a UUID');
  }
  return {
    enabled: bool('REGISTRATION_ENABLED', true),
    templateDomainId: template?.toLowerCase() ?? null,
    ttlSeconds: int('REGISTRATION_TTL_SECONDS', 86_400, 300, 30 * 86_400),
  };
});
