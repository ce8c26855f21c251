import { envReader } from '../../base/config/env-reader.js';
import { configNamespace } from '../../base/config/namespace.js';

/** Webhook delivery (src/webhooks): the SSRF rule, the worker's pace and the retry and disable schedule. */
export interface WebhookConfig {
  /** Deliver to private, loopback and other non-public addresses (tests, trusted networks only). */
  allowPrivate: boolean;
  /** How often each instance's worker looks for due deliveries (a commit that recorded events nudges it). */
  pollIntervalMs: number;
  /** One delivery attempt's limit: connect, send, and the response. */
  timeoutMs: number;
  /** Backoff after failed attempt n: base * 2^(n-1), ±25% jitter, capped at retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A webhook failing continuously this long becomes DISABLED; a delivery is given up this long after queuing. */
  disableAfterSeconds: number;
}

export const WEBHOOK_CONFIG = configNamespace('webhooks', (env, problems): WebhookConfig => {
  const { int, bool } = envReader(env, problems);
  const webhooks: WebhookConfig = {
    allowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', false),
    pollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 250, 10, 60_000),
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    retryMaxMs: int('WEBHOOK_RETRY_MAX_MS', 3_600_000, 10, 86_400_000),
    disableAfterSeconds: int('WEBHOOK_DISABLE_AFTER_SECONDS', 86_400, 1, 30 * 86_400),
  };
  if (webhooks.retryMaxMs < webhooks.retryBaseMs) {
    problems.push('WEBHOOK_RETRY_MAX_MS must not be below WEBHOOK_RETRY_BASE_MS');
  }
  return webhooks;
});
