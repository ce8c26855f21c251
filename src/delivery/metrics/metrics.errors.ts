import { defineErrors, message } from '../../base/common/errors/error-codes.js';

export const MetricsErrors = defineErrors('metrics', {
  NOT_SERVED: message(404, 'Metrics are not served here (set METRICS_TOKEN, or scrape METRICS_PORT)'),
  UNAUTHORIZED: message(401, 'A bearer token from METRICS_TOKEN is required'),
});
