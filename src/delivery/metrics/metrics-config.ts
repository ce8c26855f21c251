import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** Prometheus metrics (src/delivery/metrics): a listener of their own and/or a bearer token; neither: not served. */
export interface MetricsConfig {
  port: number | null;
  token: string | null;
}

/** METRICS_PORT (a listener of its own) and METRICS_TOKEN (bearer on /metrics); at least one to serve them. */
export const METRICS_CONFIG = configNamespace('metrics', (env, problems): MetricsConfig => {
  const { str, int } = envReader(env, problems);
  const token = str('METRICS_TOKEN');
  if (token !== null && token.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  const port = str('METRICS_PORT') === null ? null : int('METRICS_PORT', 0, 0, 65535);
  return { port, token };
});
