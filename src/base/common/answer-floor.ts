import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a request that must not tell a registered email from an unknown one takes at least (password
 * forgot, email login): the work for a known address (a transaction, a queued mail) takes a few
 * milliseconds of it, the unknown one none, and the floor hides the difference.
 */
export const ENUMERATION_FLOOR_MS = 250;

/**
 * Runs `work` and answers no sooner than `floorMs` after it started, whether it succeeded or threw, so the
 * answer's timing does not depend on which path the work took. `wait` is for tests.
 */
export async function withAnswerFloor<T>(
  floorMs: number,
  work: () => Promise<T>,
  wait: (ms: number) => Promise<unknown> = sleep,
  now: () => number = Date.now,
): Promise<T> {
  const started = now();
  try {
    return await work();
  } finally {
    const left = floorMs - (now() - started);
    if (left > 0) await wait(left);
  }
}
