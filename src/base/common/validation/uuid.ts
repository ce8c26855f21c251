const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id of the API is a UUID: anything else names nothing. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
