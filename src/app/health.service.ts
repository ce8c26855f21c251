import { Injectable } from '@nestjs/common';
import { unavailable } from '../base/common/errors/request.errors.js';
import { HealthRepository } from './health.repository.js';

/** The probes' answers: liveness needs nothing, readiness a database that answers. */
@Injectable()
export class HealthService {
  constructor(private readonly repo: HealthRepository) {}

  liveness(): { status: string } {
    return { status: 'ok' };
  }

  /** 503 (with Retry-After, as every outage) when the database does not answer. */
  async readiness(): Promise<{ status: string }> {
    try {
      await this.repo.ping();
    } catch {
      throw unavailable('Database unreachable');
    }
    return { status: 'ok' };
  }
}
