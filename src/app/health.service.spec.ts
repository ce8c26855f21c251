import { jest } from '@jest/globals';
import type { HealthRepository } from './health.repository.js';
import { HealthService } from './health.service.js';

function setup(ping: () => Promise<void>) {
  const repo = { ping: jest.fn(ping) };
  return { service: new HealthService(repo as unknown as HealthRepository), repo };
}

describe('HealthService', () => {
  it('liveness answers ok without touching the database', () => {
    const s = setup(async () => undefined);
    expect(s.service.liveness()).toEqual({ status: 'ok' });
    expect(s.repo.ping).not.toHaveBeenCalled();
  });

  it('readiness is ok when the database answers', async () => {
    const s = setup(async () => undefined);
    await expect(s.service.readiness()).resolves.toEqual({ status: 'ok' });
    expect(s.repo.ping).toHaveBeenCalledTimes(1);
  });

  it('readiness is a 503 naming the database when it does not answer (whatever the failure)', async () => {
    const s = setup(async () => {
      throw new Error('ECONNREFUSED');
    });
    await expect(s.service.readiness()).rejects.toEqual(
      expect.objectContaining({ status: 503, errors: ['Database unreachable'] }),
    );
  });
});
