import { ApiProperty } from '@nestjs/swagger';

/**
 * What a `reindex/` route answers (users, groups): the request handed to the platform's indexer through a
 * webhook event, in the published job form `{job_id, status}`. Each route's DTO adds the id of what it reindexes.
 */
export class ReindexRequestDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The request’s id; the webhook event carries it as data.reindex_id',
  })
  id!: string;
  @ApiProperty({
    format: 'uuid',
    description:
      'The id of the reindex job handed to the platform’s indexer: the same as id, and data.job_id (and data.reindex_id) of the webhook event that carries the request. This service keeps no index and no job record of it (the jobs service answers 404 for it)',
  })
  job_id!: string;
  @ApiProperty({
    enum: ['READY'],
    description: 'READY: the request is recorded and waits for the indexer (the published job status list)',
  })
  status!: 'READY';
}
