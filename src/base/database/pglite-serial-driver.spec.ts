import { DataSource } from 'typeorm';
import { createSerialPgliteDriver } from './pglite-serial-driver.js';

describe('serialising PGlite pool', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await new DataSource({
      type: 'postgres',
      driver: createSerialPgliteDriver(undefined),
      installExtensions: false,
    } as never).initialize();
    await ds.query('CREATE TABLE t (v text)');
  });
  afterAll(() => ds.destroy());

  it('keeps a concurrent write out of a transaction that rolls back', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const failing = ds
      .transaction(async (em) => {
        await em.query("INSERT INTO t VALUES ('rolled back')");
        await gate;
        throw new Error('abort');
      })
      .catch(() => 'aborted');
    // issued while the transaction is open: must wait for it, not join it
    const outside = ds.query("INSERT INTO t VALUES ('kept')");
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(await failing).toBe('aborted');
    await outside;
    expect(await ds.query('SELECT v FROM t ORDER BY v')).toEqual([{ v: 'kept' }]);
  });

  it('runs many concurrent transactions without interleaving', async () => {
    await ds.query('CREATE TABLE counter (n int)');
    await ds.query('INSERT INTO counter VALUES (0)');
    await Promise.all(
      Array.from({ length: 20 }, () =>
        ds.transaction(async (em) => {
          const [{ n }] = await em.query('SELECT n FROM counter');
          await new Promise((r) => setTimeout(r, 1));
          await em.query('UPDATE counter SET n = $1', [n + 1]);
        }),
      ),
    );
    expect(await ds.query('SELECT n FROM counter')).toEqual([{ n: 20 }]);
  });
});

describe('PGlite pools are independent', () => {
  it('gives each data source its own database, and closing one leaves the other open', async () => {
    const open = () =>
      new DataSource({
        type: 'postgres',
        driver: createSerialPgliteDriver(undefined),
        installExtensions: false,
      } as never).initialize();
    const [a, b] = await Promise.all([open(), open()]);
    await a.query('CREATE TABLE only_in_a (v int)');
    await expect(b.query('SELECT * FROM only_in_a')).rejects.toThrow();
    await a.destroy();
    expect(await b.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await b.destroy();
    // two initdb runs: seconds alone, minutes beside another jest worker on a loaded 2-core machine
  }, 300_000);
});
