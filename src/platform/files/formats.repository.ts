import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
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

  async format(em: EntityManager, assetId: string, id: string): Promise<FormatEntity | null> {
    return em.findOneBy(FormatEntity, { id, asset_id: assetId });
  }

  /** Inserts a format: its id. */
  async insertFormat(values: Partial<FormatEntity>): Promise<string> {
    const row = this.manager.create(FormatEntity, values);
    await this.manager.insert(FormatEntity, row);
    return row.id;
  }

  /** A page of the asset's formats, oldest first. */
  async formats(assetId: string, skip: number, take: number): Promise<Page<FormatEntity>> {
    return this.manager.findAndCount(FormatEntity, {
      where: { asset_id: assetId },
      order: { date_created: 'ASC', id: 'ASC' },
      skip,
      take,
    });
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

  async fileSet(em: EntityManager, assetId: string, id: string): Promise<FileSetEntity | null> {
    return em.findOneBy(FileSetEntity, { id, asset_id: assetId });
  }

  /** Inserts a file set: its id. */
  async insertFileSet(values: Partial<FileSetEntity>): Promise<string> {
    const row = this.manager.create(FileSetEntity, values);
    await this.manager.insert(FileSetEntity, row);
    return row.id;
  }

  /** A page of the asset's file sets, oldest first. */
  async fileSets(assetId: string, skip: number, take: number): Promise<Page<FileSetEntity>> {
    return this.manager.findAndCount(FileSetEntity, {
      where: { asset_id: assetId },
      order: { date_created: 'ASC', id: 'ASC' },
      skip,
      take,
    });
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
