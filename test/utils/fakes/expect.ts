/**
 * Assertions the unit specs share: an ApiError's status and code, the writes a refusal must not reach, the
 * events and audit records a change must leave, an error passed on as it is.
 */

/** An ApiError by its status and code, and with `errors` its wording on the wire too. */
export const err = (status: number, code: string, errors?: unknown) =>
  expect.objectContaining(errors === undefined ? { status, code } : { status, code, errors });

/** That none of the named methods of a fake was called: a failure names each one that was, with its calls. */
export function expectUncalled<T extends object>(fake: T, ...methods: (keyof T & string)[]): void {
  const calls = (m: keyof T) => (fake[m] as { mock: { calls: unknown[] } }).mock.calls;
  expect(Object.fromEntries(methods.map((m) => [m, calls(m)]))).toEqual(
    Object.fromEntries(methods.map((m) => [m, []])),
  );
}

/** That a webhook event with (at least) these fields was recorded in the transaction `em`. */
export const expectEvent = (events: { record: unknown }, em: unknown, fields: object) =>
  expect(events.record).toHaveBeenCalledWith(em, expect.objectContaining(fields));

/**
 * That the change was audited in the transaction `em`: `audit.change(em, caller, action, target, details)`,
 * the caller last here, and any caller unless one is given.
 */
export const expectAudited = (
  audit: { change: unknown },
  em: unknown,
  action: string,
  target: { type: string; id: string },
  details: unknown,
  caller: unknown = expect.anything(),
) => expect(audit.change).toHaveBeenCalledWith(em, caller, action, target, details);

/** That an error the fake throws, no refusal the code under test answers, is thrown on as it is. */
export async function expectRethrown(
  fake: { mockRejectedValueOnce(e: never): unknown },
  call: () => Promise<unknown>,
  error: Error = new Error('boom'),
): Promise<void> {
  fake.mockRejectedValueOnce(error as never);
  await expect(call()).rejects.toBe(error);
}
