import { ApiError, type ErrorBody } from './api-error.js';

/** One error a feature can answer: its status and how its body reads (with the details it takes). */
export interface ErrorDefinition<A extends unknown[]> {
  status: number;
  body: (...args: A) => ErrorBody;
}

type Factories<T> = {
  [K in keyof T]: T[K] extends ErrorDefinition<infer A> ? (...args: A) => ApiError : never;
};

/**
 * A feature's error codes (`x.errors.ts`): each becomes a factory of ApiError carrying `feature.CODE`. The
 * surfaces map them: the platform filter to `{errors}` with the code in `X-Error-Code`, the OAuth filter to
 * `invalid_request`, the consent pages to an error page; status and wording live here, in one place.
 */
export function defineErrors<T extends Record<string, ErrorDefinition<never[]>>>(
  feature: string,
  defs: T,
): Factories<T> {
  return Object.fromEntries(
    Object.entries(defs).map(([code, d]) => [
      code,
      (...args: unknown[]) =>
        new ApiError(
          d.status,
          (d.body as (...a: unknown[]) => ErrorBody)(...args),
          challenge(d.status),
          `${feature}.${code}`,
        ),
    ]),
  ) as Factories<T>;
}

/** A 401 says how to authenticate (RFC 7235): every one of them, whichever feature answers it. */
function challenge(status: number): Record<string, string> {
  return status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
}

/** Shorthands for definitions. */
export const message = (status: number, text: string): ErrorDefinition<[]> => ({
  status,
  body: () => [text],
});
export const fields = (status = 400): ErrorDefinition<[Record<string, string>]> => ({
  status,
  body: (f) => f,
});
