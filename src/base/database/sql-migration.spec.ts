import type { QueryRunner } from 'typeorm';
import { SqlMigration } from './sql-migration.js';

class Sample1700000000000 extends SqlMigration {
  name = 'Sample1700000000000';
  protected readonly upStatements = ['CREATE TABLE a (id int)', 'CREATE INDEX ix_a ON a (id)', 'INSERT a'];
  protected readonly downStatements = ['DROP INDEX ix_a', 'DROP TABLE a'];
}

/** A query runner that records each statement (and its parameters) and fails the ones named in `failing`. */
function recordingRunner(failing: string[] = []) {
  const ran: unknown[][] = [];
  const runner = {
    query: async (...args: unknown[]) => {
      ran.push(args);
      if (failing.includes(args[0] as string)) throw new Error(`failed: ${args[0] as string}`);
      return [];
    },
  };
  return { runner: runner as unknown as QueryRunner, ran };
}

describe('SqlMigration', () => {
  it('runs its up statements in order, each alone and without parameters', async () => {
    const { runner, ran } = recordingRunner();
    await new Sample1700000000000().up(runner);
    expect(ran).toEqual([['CREATE TABLE a (id int)'], ['CREATE INDEX ix_a ON a (id)'], ['INSERT a']]);
  });

  it('runs its down statements in order, and only those', async () => {
    const { runner, ran } = recordingRunner();
    await new Sample1700000000000().down(runner);
    expect(ran).toEqual([['DROP INDEX ix_a'], ['DROP TABLE a']]);
  });

  it('stops at a failing statement: the failure is thrown and no later statement runs', async () => {
    const { runner, ran } = recordingRunner(['CREATE INDEX ix_a ON a (id)']);
    await expect(new Sample1700000000000().up(runner)).rejects.toThrow('failed: CREATE INDEX ix_a ON a (id)');
    expect(ran).toEqual([['CREATE TABLE a (id int)'], ['CREATE INDEX ix_a ON a (id)']]);
  });

  it('keeps the name TypeORM records it under', () => {
    expect(new Sample1700000000000().name).toBe('Sample1700000000000');
  });
});
