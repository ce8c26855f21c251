/**
 * The leaky bucket of the spec's rate limit ("50 requests per second sustained, or 1000 requests in any
 * 20-second period"): each admitted request adds one to the bucket's level, the level drains at `perSecond`,
 * and a request that would take the level above `burst` is refused (and adds nothing, so a client that backs
 * off recovers at the drain rate). The same arithmetic runs in Redis (LUA_LEAKY_BUCKET_BATCH) when instances
 * share their buckets, and in memory otherwise.
 */
export interface Budget {
  /** The bucket's capacity: requests admitted at once after a quiet period. */
  burst: number;
  /** How fast the bucket drains: the sustained rate. */
  perSecond: number;
}

export interface BucketState {
  level: number;
  /** milliseconds since the epoch of the last update */
  at: number;
}

export interface Decision {
  allowed: boolean;
  /** Requests that would still be admitted right now (RateLimit-Remaining). */
  remaining: number;
  /** Whole seconds until one more request fits; 0 when allowed. */
  retryAfter: number;
}

/** One request against a bucket; returns the new state and the decision. Pure, so both stores share it. */
export function drip(state: BucketState | undefined, now: number, b: Budget): [BucketState, Decision] {
  const perMs = b.perSecond / 1000;
  const drained = state ? Math.max(0, state.level - Math.max(0, now - state.at) * perMs) : 0;
  if (drained + 1 <= b.burst) {
    const level = drained + 1;
    return [
      { level, at: now },
      { allowed: true, remaining: Math.floor(b.burst - level), retryAfter: 0 },
    ];
  }
  return [{ level: drained, at: now }, decisionFromLevel(false, drained, b)];
}

/** The decision for a bucket left at `level` (shared with the Redis path, which returns only the level). */
export function decisionFromLevel(allowed: boolean, level: number, b: Budget): Decision {
  const remaining = Math.max(0, Math.floor(b.burst - level));
  if (allowed) return { allowed, remaining, retryAfter: 0 };
  const waitMs = ((level + 1 - b.burst) * 1000) / b.perSecond;
  return { allowed, remaining, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** Milliseconds until a bucket at `level` is empty: how long its state is worth keeping. */
export function drainMs(level: number, b: Budget): number {
  return Math.ceil((level * 1000) / b.perSecond);
}

/**
 * The same step, atomic in Redis, for the requests of one turn of the event loop in one script call, each
 * charging one or several buckets in order; a refusal ends that request's charges, so its buckets after a
 * full one are not charged. KEYS are the distinct buckets of the batch; ARGV is burst_i, perSecond_i for
 * each key, then the number of requests, then for each request its number of charges and their key indices
 * (1-based). Each bucket is read once, charged request by request in arrival order (what one script call per
 * request did, in the same order), and written once. Time is Redis's own (TIME), so instances with skewed
 * clocks share one bucket exactly. Returns, for each request, the number of buckets charged and then
 * {allowed, level} for each, levels as strings (Lua numbers would be truncated to integers on the way out).
 */
export const LUA_LEAKY_BUCKET_BATCH = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nk = #KEYS
local level, burst, perMs = {}, {}, {}
for i = 1, nk do
  burst[i] = tonumber(ARGV[2 * i - 1])
  perMs[i] = tonumber(ARGV[2 * i]) / 1000
  local v = redis.call('HMGET', KEYS[i], 'l', 't')
  local l = tonumber(v[1]) or 0
  local at = tonumber(v[2]) or now
  local elapsed = now - at
  if elapsed < 0 then elapsed = 0 end
  l = l - elapsed * perMs[i]
  if l < 0 then l = 0 end
  level[i] = l
end
local out = {}
local p = 2 * nk + 1
local requests = tonumber(ARGV[p])
p = p + 1
for r = 1, requests do
  local n = tonumber(ARGV[p])
  local head = #out + 1
  out[head] = 0
  local charged = 0
  for j = 1, n do
    local i = tonumber(ARGV[p + j])
    local allowed = 0
    if level[i] + 1 <= burst[i] then
      level[i] = level[i] + 1
      allowed = 1
    end
    out[#out + 1] = allowed
    out[#out + 1] = string.format('%.6f', level[i])
    charged = charged + 1
    if allowed == 0 then break end
  end
  out[head] = charged
  p = p + n + 1
end
for i = 1, nk do
  redis.call('HSET', KEYS[i], 'l', string.format('%.6f', level[i]), 't', tostring(now))
  redis.call('PEXPIRE', KEYS[i], math.ceil(level[i] / perMs[i]) + 1000)
end
return out
`;
