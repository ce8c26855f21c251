import { loadConfig } from '../../app/config.js';
import { configProblems } from '../../../test/utils/fakes/config.js';

describe('files configuration', () => {
  it('S3_ALLOWED_BUCKETS: none by default; a comma-separated list of bucket names, blanks and repeats dropped', () => {
    expect(loadConfig({}).files.allowedBuckets).toEqual([]);
    expect(
      loadConfig({ S3_ALLOWED_BUCKETS: ' tenant-media, shared.media ,,tenant-media' }).files.allowedBuckets,
    ).toEqual(['tenant-media', 'shared.media']);
  });

  it('S3_ALLOWED_BUCKETS: an entry that is no plain bucket name stops the start, named', () => {
    expect(configProblems({ S3_ALLOWED_BUCKETS: 'ok,../up,a/b' })).toContain(
      'S3_ALLOWED_BUCKETS must be a comma-separated list of bucket names (got "../up", "a/b")',
    );
  });
});
