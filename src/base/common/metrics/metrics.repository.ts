import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

const OUTBOX_SQL = `
  SELECT 'mail' AS outbox, status, count(*)::int AS n FROM mail_outbox WHERE status IN ('PENDING', 'FAILED') GROUP BY status
  UNION ALL
  SELECT 'webhook', status, count(*)::int FROM webhook_deliveries WHERE status IN ('PENDING', 'FAILED') GROUP BY status`;

/** What a pg Pool shows of itself (node-postgres); PGlite has no pool. */
export interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** What the metrics read from the database when scraped. */
@Injectable()
export class MetricsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Mail and webhook outbox items by status (PENDING, FAILED). */
  async outboxCounts(): Promise<{ outbox: string; status: string; n: number }[]> {
    // raw: UNION ALL of two GROUP BY counts over two tables in one round trip per scrape
    return (await this.ds.query(OUTBOX_SQL)) as { outbox: string; status: string; n: number }[];
  }

  /** The connection pool's counts, read from the driver (no statement); undefined without a pool (PGlite). */
  pool(): Partial<PoolLike> | undefined {
    return (this.ds.driver as unknown as { master?: Partial<PoolLike> }).master;
  }
}
