import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The readiness probe's one statement. */
@Injectable()
export class HealthRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Throws when the database does not answer. */
  async ping(): Promise<void> {
    // raw: SELECT 1 touches no table; it only proves a connection answers
    await this.ds.query('SELECT 1');
  }
}
