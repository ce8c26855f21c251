/**
 * Database outages, classified by where the failure happened rather than by a list of codes (issue 18):
 *
 * - `connect`: no connection could be had. Any error while acquiring one (the pool's client tags it, see
 *   database/bounded-client.ts: refused, unreachable, `ALLOW_CONNECTIONS false` (55000), too many
 *   connections, authentication) or the pool's own wait timing out (every connection busy).
 * - `lost`: a connection that was working went away mid-query (reset, terminated by the server or an
 *   administrator: 57P01/57P02, any class 08 error).
 * - `stalled`: the answer did not come within the bounds (`query_timeout` on the client, `statement_timeout`
 *   on the server): the network or the server stopped answering.
 * - `server-state`: the server is shutting down or starting up (57P03, class 57P).
 * - `closed`: our own data source is closed or not initialized (shutdown, PGlite closed).
 *
 * Anything else (a constraint violation, a bug) is not an outage: the filters answer it as they would.
 */
export type OutageCause = 'connect' | 'lost' | 'stalled' | 'server-state' | 'closed';

/** Set on an error by the code that saw it happen (the pool's client while connecting). */
export const OUTAGE_CAUSE = Symbol.for('portcullis.outageCause');

interface DriverErrorLike {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  [OUTAGE_CAUSE]?: OutageCause;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const LOST_MESSAGE =
  /Connection terminated|Client has encountered a connection error|connection error and is not queryable/i;
const CLOSED_MESSAGE =
  /DataSource is not initialized|Driver not Connected|PGlite is closed|Cannot use a pool after calling end/i;

function causeOf(e: DriverErrorLike): OutageCause | null {
  const tagged = e[OUTAGE_CAUSE];
  if (tagged) return tagged;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  // pg-pool: every connection busy past connectionTimeoutMillis
  if (/timeout exceeded when trying to connect/i.test(message)) return 'connect';
  if (/Query read timeout/i.test(message)) return 'stalled';
  // 57014 is also a cancel we asked for; we never cancel, so only the statement timeout's is an outage
  if (code === '57014' && /statement timeout/i.test(message)) return 'stalled';
  if (code === '57P03') return 'server-state';
  if (code === '57P01' || code === '57P02' || code.startsWith('08')) return 'lost';
  if (code === '53300') return 'connect';
  if (NETWORK_CODES.has(code)) return code === 'ECONNREFUSED' ? 'connect' : 'lost';
  if (LOST_MESSAGE.test(message)) return 'lost';
  if (CLOSED_MESSAGE.test(message)) return 'closed';
  return null;
}

/** Where a database failure happened, or null when it is not an outage. Looks through TypeORM's wrapper. */
export function outageCause(err: unknown): OutageCause | null {
  let e = err as DriverErrorLike | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const cause = causeOf(e);
    if (cause) return cause;
    e = (e.driverError ?? e.cause) as DriverErrorLike | undefined;
  }
  return null;
}

/** Database failures that mean "try again" rather than "your request is wrong". */
export function isUnavailable(err: unknown): boolean {
  return outageCause(err) !== null;
}

/** Seconds a client waits before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5;
