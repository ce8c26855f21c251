/**
 * Waits for something that happens in the background (a worker's round, a delivery, a job) by polling
 * `check` until it returns a value other than undefined or false, and fails after `ms`, naming `what`. The
 * one way a test waits: never a fixed sleep, which is either too short on a busy machine (a flaky test) or
 * longer than needed (a slow one). To show that something did *not* happen, wait for what proves the
 * background work ran (its round, its record), then assert what must be absent.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 20_000,
  every = 25,
  what = 'the condition',
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > until) throw new Error(`${what} was not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, every));
  }
}
