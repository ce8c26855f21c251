import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { preparedQuery } from '../../base/database/prepared-query.js';
import type { FileEntity } from '../../base/model/file.entity.js';
import type { StorageEntity } from '../../base/model/storage.entity.js';

/** The columns of a file the upload reads (bigints as text, as TypeORM gives them). */
export type UploadFile = Pick<
  FileEntity,
  | 'id'
  | 'status'
  | 'size'
  | 'received'
  | 'original_name'
  | 'object_key'
  | 'multipart_upload_id'
  | 'multipart_parts'
>;
export type UploadStorage = Pick<StorageEntity, 'id' | 'method' | 'settings'>;

/** What a chunk changes with the release of its lease (the columns the upload writes). */
export type UploadChanges = Partial<
  Pick<FileEntity, 'received' | 'multipart_parts' | 'size' | 'multipart_upload_id'>
>;

const TARGET_SQL = `
  SELECT f.id, f.status, f.size::text AS size, f.received::text AS received, f.original_name, f.object_key,
         f.multipart_upload_id, f.multipart_parts,
         s.id AS storage_id, s.method AS storage_method, s.settings AS storage_settings
    FROM files f
    JOIN assets a ON a.id = f.asset_id AND a.date_deleted IS NULL
    JOIN storages s ON s.id = f.storage_id
   WHERE f.id = $1 AND f.date_deleted IS NULL`;

// each UPDATE is wrapped in a SELECT: the rows it changed come back alike from the pg pool and from
// TypeORM's query (which answers an UPDATE with [rows, count])
const TAKE_SQL = `
  WITH taken AS (
    UPDATE files SET upload_lock_until = $4::timestamptz, date_modified = now()
     WHERE id = $1 AND status = 'OPEN' AND date_deleted IS NULL AND received = $2::bigint
       AND (upload_lock_until IS NULL OR upload_lock_until <= $3::timestamptz)
    RETURNING id)
  SELECT id FROM taken`;

const RENEW_SQL = `
  WITH renewed AS (
    UPDATE files SET upload_lock_until = $3::timestamptz, date_modified = now()
     WHERE id = $1 AND upload_lock_until = $2::timestamptz
    RETURNING id)
  SELECT id FROM renewed`;

const RELEASE_SQL = `
  WITH released AS (
    UPDATE files SET upload_lock_until = NULL, date_modified = now(),
           received = COALESCE($3::bigint, received),
           multipart_parts = COALESCE($4::jsonb, multipart_parts),
           size = COALESCE($5::bigint, size),
           multipart_upload_id = CASE WHEN $6::boolean THEN $7::text ELSE multipart_upload_id END
     WHERE id = $1 AND upload_lock_until = $2::timestamptz
    RETURNING id)
  SELECT id FROM released`;

type TargetRow = UploadFile & { storage_id: string; storage_method: string; storage_settings: unknown };

/**
 * The statements of the resumable upload, each chunk's path: the file with its storage (one read), the lease
 * taken, renewed while the chunk streams, and released with what the chunk changed. Named prepared
 * statements (database/prepared-query.ts): a 1 GiB upload in 8 MiB chunks makes about 400 of them.
 */
@Injectable()
export class UploadRepository extends FeatureRepository {
  /** A live file whose asset is not deleted, with its storage; or null. */
  async target(id: string): Promise<{ file: UploadFile; storage: UploadStorage } | null> {
    // raw: the hot path's lookup (files, assets and storages in one prepared statement)
    const [row] = await preparedQuery<TargetRow>(this.ds, 'portcullis_upload_target', TARGET_SQL, [id]);
    if (!row) return null;
    const { storage_id, storage_method, storage_settings, ...file } = row;
    return {
      file,
      storage: {
        id: storage_id,
        method: storage_method,
        settings: (storage_settings ?? {}) as UploadStorage['settings'],
      },
    };
  }

  /**
   * Takes the upload's lease until `until`: only on an OPEN live file still at `received` bytes whose lease
   * is free at `now`. Whether it was taken.
   */
  async takeUploadLease(id: string, received: number, now: Date, until: Date): Promise<boolean> {
    // raw: a compare-and-set on the row (UPDATE … RETURNING), prepared: each chunk takes it
    const rows = await preparedQuery(this.ds, 'portcullis_upload_take', TAKE_SQL, [
      id,
      String(received),
      now.toISOString(),
      until.toISOString(),
    ]);
    return rows.length > 0;
  }

  /** Moves the lease held as `lease` on to `until`: whether it was still held. */
  async renewUploadLease(id: string, lease: Date, until: Date): Promise<boolean> {
    // raw: a compare-and-set on the lease (UPDATE … RETURNING)
    const rows = await preparedQuery(this.ds, 'portcullis_upload_renew', RENEW_SQL, [
      id,
      lease.toISOString(),
      until.toISOString(),
    ]);
    return rows.length > 0;
  }

  /** Frees the lease held as `lease`, writing what the chunk changed with it: whether it was still held. */
  async releaseUploadLease(id: string, lease: Date, changes: UploadChanges): Promise<boolean> {
    // raw: a compare-and-set on the lease (UPDATE … RETURNING), prepared: each chunk releases it
    const rows = await preparedQuery(this.ds, 'portcullis_upload_release', RELEASE_SQL, [
      id,
      lease.toISOString(),
      changes.received ?? null,
      changes.multipart_parts === undefined ? null : JSON.stringify(changes.multipart_parts),
      changes.size ?? null,
      changes.multipart_upload_id !== undefined,
      changes.multipart_upload_id ?? null,
    ]);
    return rows.length > 0;
  }
}
