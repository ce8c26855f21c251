import { Injectable } from '@nestjs/common';
import type { EntityManager, EntityTarget, FindOptionsOrder, FindOptionsWhere } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { insertRow } from '../../base/database/insert-row.js';
import { AssetEntity } from '../../base/model/asset.entity.js';
import { FileEntity, FileSetEntity, FormatEntity } from '../../base/model/file.entity.js';

/** A page of rows and the total count. */
export type Page<T> = [T[], number];

/** Formats and file sets of an asset, the asset's current version and the live files they hold. */
@Injectable()
export class FormatsRepository extends FeatureRepository {
  /** The asset's current version, null when it has none (or the asset is gone). */
  async currentVersion(em: EntityManager, assetId: string): Promise<string | null> {
    return (await em.findOneBy(AssetEntity, { id: assetId }))?.current_version_id ?? null;
  }

  format(em: EntityManager, assetId: string, id: string): Promise<FormatEntity | null> {
    return rowOfAsset(em, FormatEntity, assetId, id);
  }

  /** Inserts a format: its id. */
  async insertFormat(values: Partial<FormatEntity>): Promise<string> {
    return (await insertRow(this.manager, FormatEntity, values)).id;
  }

  /** A page of the asset's formats, oldest first. */
  formats(assetId: string, skip: number, take: number): Promise<Page<FormatEntity>> {
    return pageOfAsset(this.manager, FormatEntity, assetId, skip, take);
  }

  async updateFormat(id: string, changes: Partial<FormatEntity>): Promise<void> {
    await this.manager.update(FormatEntity, { id }, changes);
  }

  /** Live files in the format. */
  async liveFilesOfFormat(em: EntityManager, id: string): Promise<number> {
    return em
      .getRepository(FileEntity)
      .createQueryBuilder('f')
      .where('f.format_id = :id AND f.date_deleted IS NULL', { id })
      .getCount();
  }

  /** Deletes a format, its file sets first let go of it. */
  async deleteFormat(em: EntityManager, id: string): Promise<void> {
    await em.update(FileSetEntity, { format_id: id }, { format_id: null });
    await em.delete(FormatEntity, { id });
  }

  fileSet(em: EntityManager, assetId: string, id: string): Promise<FileSetEntity | null> {
    return rowOfAsset(em, FileSetEntity, assetId, id);
  }

  /** Inserts a file set: its id. */
  async insertFileSet(values: Partial<FileSetEntity>): Promise<string> {
    return (await insertRow(this.manager, FileSetEntity, values)).id;
  }

  /** A page of the asset's file sets, oldest first. */
  fileSets(assetId: string, skip: number, take: number): Promise<Page<FileSetEntity>> {
    return pageOfAsset(this.manager, FileSetEntity, assetId, skip, take);
  }

  async updateFileSet(id: string, changes: Partial<FileSetEntity>): Promise<void> {
    await this.manager.update(FileSetEntity, { id }, changes);
  }

  async deleteFileSet(em: EntityManager, id: string): Promise<void> {
    await em.delete(FileSetEntity, { id });
  }

  /** Live files per file set. */
  async fileCounts(em: EntityManager, setIds: string[]): Promise<Map<string, number>> {
    // raw: count(*) GROUP BY over ANY($1::uuid[]), no entity materialised
    const rows: { id: string; n: string }[] = await em.query(
      `SELECT file_set_id AS id, count(*) AS n FROM files
        WHERE file_set_id = ANY($1::uuid[]) AND date_deleted IS NULL GROUP BY file_set_id`,
      [setIds],
    );
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }
}

/** What formats and file sets share: rows of one asset. */
type AssetRow = FormatEntity | FileSetEntity;

/** The asset's row `id` of `entity`, or null. */
function rowOfAsset<E extends AssetRow>(
  em: EntityManager,
  entity: EntityTarget<E>,
  assetId: string,
  id: string,
): Promise<E | null> {
  return em.findOneBy(entity, { id, asset_id: assetId } as FindOptionsWhere<E>);
}

/** A page of the asset's rows of `entity`, oldest first. */
function pageOfAsset<E extends AssetRow>(
  em: EntityManager,
  entity: EntityTarget<E>,
  assetId: string,
  skip: number,
  take: number,
): Promise<Page<E>> {
  return em.findAndCount(entity, {
    where: { asset_id: assetId } as FindOptionsWhere<E>,
    order: { date_created: 'ASC', id: 'ASC' } as FindOptionsOrder<E>,
    skip,
    take,
  });
}
