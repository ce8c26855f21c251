import { refusedBucket } from './bucket-rule.js';

describe('refusedBucket (S3_ALLOWED_BUCKETS)', () => {
  const allowed = ['tenant-media', 'shared-media'];

  it('lets a domain administrator name a listed bucket, or none (the deployment’s S3_BUCKET)', () => {
    expect(refusedBucket({ bucket: 'tenant-media', prefix: 'p/' }, allowed, false)).toBeNull();
    expect(refusedBucket({ prefix: 'p/' }, allowed, false)).toBeNull();
    expect(refusedBucket({ bucket: '' }, allowed, false)).toBeNull();
    expect(refusedBucket({}, [], false)).toBeNull();
  });

  it('refuses any other bucket, exactly as spelled, and every bucket when the list is empty', () => {
    expect(refusedBucket({ bucket: 'deployment-backups' }, allowed, false)).toBe('deployment-backups');
    expect(refusedBucket({ bucket: 'Tenant-Media' }, allowed, false)).toBe('Tenant-Media');
    expect(refusedBucket({ bucket: 'tenant-media' }, [], false)).toBe('tenant-media');
  });

  it('lets a super administrator name any bucket', () => {
    expect(refusedBucket({ bucket: 'deployment-backups' }, allowed, true)).toBeNull();
    expect(refusedBucket({ bucket: 'tenant-media' }, [], true)).toBeNull();
  });
});
