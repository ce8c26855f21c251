import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A migration that is only SQL: the statements `up` runs, in order, and the ones `down` runs to undo them.
 * Most migrations are a fixed list of DDL (and data) statements, so they hold the lists as data and this class
 * runs them: one `query` call per statement, one after another, the first failure ending the run (TypeORM
 * rolls the migration's transaction back). A migration with more than fixed statements (parameters, a loop,
 * rows read back) implements `MigrationInterface` itself.
 *
 * TypeORM knows a migration by its `name` (it falls back to the constructor's name), recorded in the
 * migrations table and ending in the 13-digit timestamp that orders the migrations: each subclass sets it to
 * its class name, as the generated migrations always did.
 */
export abstract class SqlMigration implements MigrationInterface {
  abstract name: string;
  /** Run in this order by `up`. */
  protected abstract readonly upStatements: readonly string[];
  /** Run in this order by `down`: usually `upStatements` undone, last first. */
  protected abstract readonly downStatements: readonly string[];

  public async up(queryRunner: QueryRunner): Promise<void> {
    await runInOrder(queryRunner, this.upStatements);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await runInOrder(queryRunner, this.downStatements);
  }
}

async function runInOrder(queryRunner: QueryRunner, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await queryRunner.query(statement);
}
