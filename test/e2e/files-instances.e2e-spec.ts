import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app/app.factory.js';
import { loadConfig } from '../../src/app/config.js';
import { objectKey } from '../../src/platform/files/byte-store.js';
import { FilesWorker } from '../../src/platform/files/files.worker.js';
import { filesUnder } from '../utils/files.js';
import { createTestDatabase } from '../utils/test-database.js';
import { waitFor } from '../utils/wait-for.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Issue 20, item 5: two instances on one database sweep deleted assets and remove their files' bytes; each
 * object is queued once and removed by one instance (one task per file, one attempt each), nothing is left.
 * PostgreSQL only (CI's PostgreSQL pass): embedded PGlite is one process's database.
 */
(onPostgres ? describe : describe.skip)('files: byte removal across instances (PostgreSQL)', () => {
  let a: NestExpressApplication;
  let b: NestExpressApplication;
  let drop: () => Promise<void>;
  let dir: string;

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    dir = mkdtempSync(join(tmpdir(), 'portcullis-files-instances-'));
    const config = loadConfig({
      DATABASE_URL: db.url as string,
      KEY_ENCRYPTION_SECRET: 'shared-key-encryption-secret-0123456789',
      BOOTSTRAP_ADMIN_EMAIL: 'admin@files.test',
      BOOTSTRAP_ADMIN_PASSWORD: 'files-instances-password',
      LOG_LEVEL: 'silent',
      STORAGE_DIR: dir,
      FILES_WORKER_INTERVAL_MS: '10',
    });
    [a, b] = await Promise.all([createApp(config), createApp(config)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the files of deleted assets lose their bytes exactly once', async () => {
    const ds = a.get(DataSource);
    const [{ system_domain_id: domainId }] = (await ds.query(
      'SELECT system_domain_id FROM users LIMIT 1',
    )) as {
      system_domain_id: string;
    }[];
    const [{ id: storageId }] = (await ds.query(
      "SELECT id FROM storages WHERE purpose = 'FILES' AND system_domain_id IS NULL",
    )) as { id: string }[];
    const fileIds: string[] = [];
    for (let i = 0; i < 8; i++) {
      const [{ id: assetId }] = (await ds.query(
        'INSERT INTO assets (system_domain_id, title) VALUES ($1, $2) RETURNING id',
        [domainId, `asset ${i}`],
      )) as { id: string }[];
      for (let j = 0; j < 15; j++) {
        const id = randomUUID();
        const key = objectKey.file(id);
        const path = join(dir, storageId, key);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, `bytes of ${id}`);
        await ds.query(
          `INSERT INTO files (id, asset_id, storage_id, object_key, original_name, status, size, received)
           VALUES ($1, $2, $3, $4, 'f', 'CLOSED', 10, 10)`,
          [id, assetId, storageId, key],
        );
        fileIds.push(id);
      }
    }
    expect(filesUnder(dir)).toHaveLength(fileIds.length);
    // all deleted at once: both instances' workers (every 10 ms) compete for the sweep and the removals
    await ds.query('UPDATE assets SET date_deleted = now(), status = $1', ['DELETED']);
    const tasks = await waitFor(async () => {
      const rows = (await ds.query(
        "SELECT file_id, status, attempts FROM file_tasks WHERE kind = 'DELETE_BYTES'",
      )) as { file_id: string; status: string; attempts: number }[];
      return rows.length === fileIds.length && rows.every((r) => r.status === 'DONE') ? rows : undefined;
    }, 30_000);
    // both instances have looked again since: a second sweep or claim would show by now
    await Promise.all([a.get(FilesWorker).afterRounds(2), b.get(FilesWorker).afterRounds(2)]);
    const again = (await ds.query(
      "SELECT file_id, attempts FROM file_tasks WHERE kind = 'DELETE_BYTES'",
    )) as {
      file_id: string;
      attempts: number;
    }[];
    expect(again).toHaveLength(fileIds.length);
    expect(new Set(tasks.map((t) => t.file_id))).toEqual(new Set(fileIds));
    expect(again.every((t) => t.attempts === 1)).toBe(true);
    expect(filesUnder(dir)).toEqual([]);
    const [{ n }] = (await ds.query("SELECT count(*)::int AS n FROM files WHERE status <> 'DELETED'")) as {
      n: number;
    }[];
    expect(n).toBe(0);
  });
});
