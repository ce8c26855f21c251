/** Database failures that mean "try again" rather than "your request is wrong". */
export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string; name?: string };
  if (!e) return false;
  if (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      '57P01',
      '57P03',
      '53300',
      '08006',
      '08001',
      '08003',
    ].includes(e.code ?? '')
  ) {
    return true;
  }
  return /Connection terminated|connect ECONNREFUSED|DataSource is not initialized|Driver not Connected|PGlite is closed|Cannot use a pool after calling end/i.test(
    e.message ?? '',
  );
}

/** Seconds a client waits before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5;
