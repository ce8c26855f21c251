/**
 * Topics of the invalidation bus. They live here, not in the feature that caches, so that a feature whose
 * change invalidates another's cache publishes without importing it (users → app registrations).
 */

/** Application records (OAuth client registrations); key: the app id, or null for all. */
export const APPS_TOPIC = 'apps';
