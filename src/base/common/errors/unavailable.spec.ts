import { QueryFailedError } from 'typeorm';
import { isUnavailable, OUTAGE_CAUSE, outageCause } from './unavailable.js';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const wrapped = (err: Error) => new QueryFailedError('SELECT 1', [], err);

describe('outageCause', () => {
  it.each([
    [
      'a connect error tagged by the pool client, whatever its code',
      Object.assign(pgError('55000'), { [OUTAGE_CAUSE]: 'connect' }),
      'connect',
    ],
    [
      'the pool waiting past connectionTimeoutMillis',
      new Error('timeout exceeded when trying to connect'),
      'connect',
    ],
    ['refused', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'connect'],
    ['too many connections', pgError('53300'), 'connect'],
    ['reset mid-query', pgError('ECONNRESET'), 'lost'],
    [
      'terminated by an administrator',
      pgError('57P01', 'terminating connection due to administrator command'),
      'lost',
    ],
    ['crash shutdown', pgError('57P02'), 'lost'],
    ['connection failure class 08', pgError('08006'), 'lost'],
    ['connection ended under a query', new Error('Connection terminated unexpectedly'), 'lost'],
    ['client query_timeout', new Error('Query read timeout'), 'stalled'],
    ['server statement_timeout', pgError('57014', 'canceling statement due to statement timeout'), 'stalled'],
    ['starting up or shutting down', pgError('57P03', 'the database system is starting up'), 'server-state'],
    ['our data source closed', new Error('DataSource is not initialized'), 'closed'],
    ['PGlite closed', new Error('PGlite is closed'), 'closed'],
  ])('%s', (_name, err, cause) => {
    expect(outageCause(err)).toBe(cause);
    expect(outageCause(wrapped(err))).toBe(cause);
    expect(isUnavailable(err)).toBe(true);
  });

  it.each([
    ['55000 outside connecting (e.g. currval before nextval) is a bug, not an outage', pgError('55000')],
    ['a unique violation', pgError('23505', 'duplicate key value violates unique constraint')],
    ['a cancel that is no statement timeout', pgError('57014', 'canceling statement due to user request')],
    ['a plain error', new Error('boom')],
    ['nothing', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('%s', (_name, err) => {
    expect(outageCause(err)).toBeNull();
    expect(isUnavailable(err)).toBe(false);
  });

  it('gives up on a cause chain that loops', () => {
    const a: { message: string; cause?: unknown } = { message: 'a' };
    a.cause = a;
    expect(outageCause(a)).toBeNull();
  });
});
