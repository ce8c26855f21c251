import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/app/config.js';
import { dataSourceOptions } from '../../src/base/database/data-source.js';
import { MIGRATIONS } from '../../src/base/database/migrations/index.js';
import { MetadataFields1795920989626 } from '../../src/base/database/migrations/1795920989626-metadata-fields.js';
import { createTestDatabase } from '../utils/test-database.js';

/**
 * Issue 38 item 5, on an installation that had views with inline fields: the migration registers every field
 * a view defined (the latest definition of a name) and every field assets have values of, and the views keep
 * only the names; down puts the definitions back inline.
 */
describe('migration: the metadata field registry on existing views and values', () => {
  let ds: DataSource;
  let drop: (() => Promise<void>) | undefined;
  const q = (sql: string, params: unknown[] = []) =>
    ds.query(sql, params) as Promise<Record<string, unknown>[]>;

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    const config = loadConfig({
      DATA_DIR: 'memory://',
      KEY_ENCRYPTION_SECRET: 'test-key-encryption-secret-0123456789',
      ...(db.url ? { DATABASE_URL: db.url } : {}),
    });
    ds = await new DataSource({
      ...dataSourceOptions(config),
      migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(MetadataFields1795920989626)),
    } as never).initialize();
    await ds.runMigrations({ transaction: 'each' });
  });
  afterAll(async () => {
    await ds?.destroy();
    await drop?.();
  });

  it('registers the views’ inline fields and the fields with values, and leaves the views their names; down restores them', async () => {
    const [d1, d2, asset, version] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const d of [d1, d2])
      await q(`INSERT INTO system_domains (id, name, base_url) VALUES ($1, $2, 'https://x')`, [
        d,
        `domain ${d}`,
      ]);
    const view = async (domain: string, fields: object[], modified: string) =>
      (
        await q(
          `INSERT INTO metadata_views (system_domain_id, name, view_fields, date_modified) VALUES ($1, 'v', $2::jsonb, $3) RETURNING id`,
          [domain, JSON.stringify(fields), modified],
        )
      )[0].id as string;
    const older = await view(d1, [{ name: 'keywords', label: 'Old label', required: false }], '2026-01-01');
    const newer = await view(
      d1,
      [
        { name: 'description', label: 'Description', auto_set: false, read_only: false, required: false },
        { name: 'keywords', label: 'Keywords', required: true, read_only: false },
      ],
      '2026-02-01',
    );
    const other = await view(d2, [{ name: 'keywords', label: 'Theirs', read_only: true }], '2026-01-15');
    await q(`INSERT INTO assets (id, system_domain_id, title) VALUES ($1, $2, 'a')`, [asset, d1]);
    await q(`INSERT INTO asset_versions (id, asset_id) VALUES ($1, $2)`, [version, asset]);
    await q(
      `INSERT INTO metadata_values (version_id, field_name, asset_id, field_values) VALUES ($1, 'orphan', $2, '[{"value": 1}]'), ($1, 'keywords', $2, '[{"value": "k"}]')`,
      [version, asset],
    );

    // one query runner at a time: PGlite hands its single session to one checkout
    const up = ds.createQueryRunner();
    await new MetadataFields1795920989626().up(up);
    await up.release();

    const fields = await q(
      `SELECT system_domain_id, name, label, field_type, multi, required, read_only FROM metadata_fields ORDER BY system_domain_id = $1 DESC, name`,
      [d1],
    );
    expect(fields).toEqual([
      {
        system_domain_id: d1,
        name: 'description',
        label: 'Description',
        field_type: 'string',
        multi: true,
        required: false,
        read_only: false,
      },
      {
        system_domain_id: d1,
        name: 'keywords',
        label: 'Keywords',
        field_type: 'string',
        multi: true,
        required: true,
        read_only: false,
      },
      {
        system_domain_id: d1,
        name: 'orphan',
        label: 'orphan',
        field_type: 'string',
        multi: true,
        required: false,
        read_only: false,
      },
      {
        system_domain_id: d2,
        name: 'keywords',
        label: 'Theirs',
        field_type: 'string',
        multi: true,
        required: false,
        read_only: true,
      },
    ]);
    const views = await q(`SELECT id, view_fields FROM metadata_views`);
    const byId = new Map(views.map((v) => [v.id, v.view_fields]));
    expect(byId.get(older)).toEqual([{ name: 'keywords' }]);
    expect(byId.get(newer)).toEqual([{ name: 'description' }, { name: 'keywords' }]);
    expect(byId.get(other)).toEqual([{ name: 'keywords' }]);

    const down = ds.createQueryRunner();
    await new MetadataFields1795920989626().down(down);
    await down.release();
    const restored = await q(`SELECT view_fields FROM metadata_views WHERE id = $1`, [newer]);
    expect(restored[0].view_fields).toEqual([
      expect.objectContaining({ name: 'description', label: 'Description', required: false }),
      expect.objectContaining({ name: 'keywords', label: 'Keywords', required: true }),
    ]);
    expect(await q(`SELECT to_regclass('metadata_fields') AS t`)).toEqual([{ t: null }]);
  });
});
