import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The id of the request being served, for code far from the request (the webhook outbox records it with
 * each event) without passing it down every call. Holds the id string only: the request logger enters it
 * once per request (`enterRequest`), and nothing else is stored, so the hot path pays one `run`.
 */
const storage = new AsyncLocalStorage<string>();

/** Runs `next` (the rest of the request's handling) with `requestId` as the current request id. */
export function enterRequest(requestId: string, next: () => void): void {
  storage.run(requestId, next);
}

/** The id of the request this code runs for; undefined outside a request (workers, start-up, tests). */
export function currentRequestId(): string | undefined {
  return storage.getStore();
}
