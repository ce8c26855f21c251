import { RETRY_AFTER_SECONDS } from './unavailable.js';
import { defineErrors, fields } from './error-codes.js';

/** Errors of the request itself, before any feature: validation, hostile input, the database down. */
export const RequestErrors = defineErrors('request', {
  INVALID: fields(),
  HOSTILE: { status: 400, body: (text: string) => [text] },
  UNAVAILABLE: { status: 503, body: (text: string) => [text] },
});

/** A 503 for a database that does not answer, with the Retry-After every 503 carries. */
export function unavailable(text = 'Service temporarily unavailable; retry shortly') {
  const e = RequestErrors.UNAVAILABLE(text);
  e.headers['Retry-After'] = String(RETRY_AFTER_SECONDS);
  return e;
}
