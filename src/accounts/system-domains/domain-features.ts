import type { FeatureConfigDto } from './dto/system-domain.dto.js';
import { MAX_FEATURES } from './dto/system-domain.dto.js';
import { SystemDomainsErrors } from './system-domains.errors.js';

/** A feature's parameters: at most this many bytes as JSON … */
export const MAX_PARAMETER_BYTES = 4096;
/** … and nested at most this deep (the parameters object itself is depth 1). */
export const MAX_PARAMETER_DEPTH = 5;

/** A domain's features: the names, and the parameters of those turned on with some. */
export interface DomainFeatures {
  features: string[];
  parameters: Record<string, Record<string, unknown>>;
}

function depth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  let deepest = 0;
  for (const child of children) deepest = Math.max(deepest, depth(child));
  return 1 + deepest;
}

/** The parameters as kept: a bounded plain object, or null for none (absent, null, {}). 400 otherwise. */
export function checkedParameters(parameters: unknown): Record<string, unknown> | null {
  if (parameters === undefined || parameters === null) return null;
  if (typeof parameters !== 'object' || Array.isArray(parameters)) {
    throw SystemDomainsErrors.INVALID({ 'config.parameters': 'must be an object' });
  }
  if (Object.keys(parameters).length === 0) return null;
  const bytes = Buffer.byteLength(JSON.stringify(parameters), 'utf8');
  if (bytes > MAX_PARAMETER_BYTES || depth(parameters) > MAX_PARAMETER_DEPTH) {
    throw SystemDomainsErrors.INVALID({
      'config.parameters': `at most ${MAX_PARAMETER_BYTES} bytes as JSON, nested at most ${MAX_PARAMETER_DEPTH} deep`,
    });
  }
  return parameters as Record<string, unknown>;
}

/**
 * The published POST /v1/system_domains/{id}/features/ (`{config: {feature, parameters}}`): the feature (its
 * name already lower case) joins the list once, and its parameters become the ones sent (none: none kept).
 */
export function withFeature(current: DomainFeatures, config: FeatureConfigDto): DomainFeatures {
  const kept = checkedParameters(config.parameters);
  const { [config.feature]: _old, ...others } = current.parameters;
  const parameters = kept ? { ...others, [config.feature]: kept } : others;
  if (current.features.includes(config.feature)) return { features: current.features, parameters };
  if (current.features.length >= MAX_FEATURES)
    throw SystemDomainsErrors.INVALID({ 'config.feature': `at most ${MAX_FEATURES} features` });
  return { features: [...current.features, config.feature], parameters };
}

/** PUT …/features/: the list as sent; the parameters of the features it keeps stay, the others go. */
export function replacedFeatures(current: DomainFeatures, features: string[]): DomainFeatures {
  const parameters = Object.fromEntries(
    Object.entries(current.parameters).filter(([name]) => features.includes(name)),
  );
  return { features: [...features], parameters };
}
