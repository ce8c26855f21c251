/** Values most unit specs share: the instant their clocks stand at, the markers their repositories hand out. */

/** The instant `fixedClock(NOW)` stands at: what a service stamps as "now" in a spec. */
export const NOW = new Date('2026-05-01T12:00:00Z');

/** The entity manager a repository fake's transaction hands its work: specs check it is passed on. */
export const EM = { em: 'transaction' };

/** A repository's own manager, for reads outside any transaction. */
export const MANAGER = { em: 'manager' };

/** What the database driver throws when the database is down: the connection refused. */
export const dbOutage = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
