import { loadConfig } from '../../app/config.js';
import { expectConfigRefused } from '../../../test/utils/fakes/config.js';
import { backoffMs } from '../../base/common/polling-loop.js';

describe('webhook configuration', () => {
  it('defaults: private targets refused, 250 ms poll, 10 s timeout, 5 s to 1 h backoff, disabled after a day', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivate: false,
      pollIntervalMs: 250,
      timeoutMs: 10_000,
      retryBaseMs: 5_000,
      retryMaxMs: 3_600_000,
      disableAfterSeconds: 86_400,
    });
  });

  it('reads and validates every variable, naming the bad ones', () => {
    expect(
      loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_DISABLE_AFTER_SECONDS: '60' }).webhooks,
    ).toMatchObject({ allowPrivate: true, disableAfterSeconds: 60 });
    expectConfigRefused(
      {
        WEBHOOK_ALLOW_PRIVATE: 'maybe',
        WEBHOOK_TIMEOUT_MS: '0',
        WEBHOOK_POLL_INTERVAL_MS: 'fast',
        WEBHOOK_RETRY_BASE_MS: '1000',
        WEBHOOK_RETRY_MAX_MS: '500',
        WEBHOOK_DISABLE_AFTER_SECONDS: '-1',
      },
      'WEBHOOK_ALLOW_PRIVATE',
      'WEBHOOK_TIMEOUT_MS',
      'WEBHOOK_POLL_INTERVAL_MS',
      'WEBHOOK_RETRY_MAX_MS must not be below WEBHOOK_RETRY_BASE_MS',
      'WEBHOOK_DISABLE_AFTER_SECONDS',
    );
  });

  it('backoff doubles from the base with ±25% jitter and never exceeds the cap', () => {
    const c = { retryBaseMs: 5_000, retryMaxMs: 3_600_000 };
    for (let i = 0; i < 200; i++) {
      const first = backoffMs(1, c);
      expect(first).toBeGreaterThanOrEqual(3_750);
      expect(first).toBeLessThanOrEqual(6_250);
      const fourth = backoffMs(4, c);
      expect(fourth).toBeGreaterThanOrEqual(30_000);
      expect(fourth).toBeLessThanOrEqual(50_000);
      expect(backoffMs(20, c)).toBeLessThanOrEqual(3_600_000);
      expect(backoffMs(20, c)).toBeGreaterThanOrEqual(2_700_000);
      expect(backoffMs(10_000, c)).toBeLessThanOrEqual(3_600_000);
    }
  });
});
