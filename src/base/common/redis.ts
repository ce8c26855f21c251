import { Redis, type RedisOptions } from 'ioredis';

/**
 * The one way the service connects to Redis (rate-limit buckets, the invalidation bus). Redis only ever makes
 * things faster, so a command must never hold a request up while it is away: no offline queue (a command
 * sent while disconnected fails at once instead of waiting for the reconnection), no retries of a command,
 * and a short command timeout for a Redis that accepts connections but does not answer. The connection
 * itself keeps coming back, trying at most every 2 s. `connectionName` makes CLIENT LIST say whose it is.
 */
export function failFastRedis(url: string, connectionName: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: FAIL_FAST_COMMAND_TIMEOUT_MS,
    connectionName,
    retryStrategy: (times) => Math.min(times * 100, 2000),
    ...extra,
  });
}

export const FAIL_FAST_COMMAND_TIMEOUT_MS = 250;
