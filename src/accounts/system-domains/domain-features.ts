import type { FeatureConfigDto } from './dto/system-domain.dto.js';
import { MAX_FEATURES } from './dto/system-domain.dto.js';
import { SystemDomainsErrors } from './system-domains.errors.js';

/**
 * The published POST /v1/system_domains/{id}/features/ (`{config: {feature, parameters}}`) on this service's
 * features, which are names: the feature joins the list (once). Parameters have nowhere to live, so any are
 * refused rather than dropped unseen.
 */
export function withFeature(current: string[], config: FeatureConfigDto): string[] {
  if (config.parameters && Object.keys(config.parameters).length > 0) {
    throw SystemDomainsErrors.INVALID({
      'config.parameters': 'features carry no parameters here: send none, null or {}',
    });
  }
  if (current.includes(config.feature)) return current;
  if (current.length >= MAX_FEATURES)
    throw SystemDomainsErrors.INVALID({ 'config.feature': `at most ${MAX_FEATURES} features` });
  return [...current, config.feature];
}
