import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { AssetEntity, AssetVersionEntity } from '../../base/model/asset.entity.js';
import { FileEntity } from '../../base/model/file.entity.js';
import { ProxyEntity } from '../../base/model/proxy.entity.js';

/** A proxy with the file that holds its bytes (status, size, upload state). */
export type ProxyWithFile = ProxyEntity & { file: FileEntity };

/**
 * Proxies and the file row each one's bytes live in (created together). Reads always join the file; the
 * byte removal of deleted proxies goes through the files' own statements (FilesRepository).
 */
@Injectable()
export class ProxiesRepository extends FeatureRepository {
  /** Inserts the file that will hold the bytes and the proxy naming it, in one transaction. */
  async insert(file: Partial<FileEntity>, proxy: Partial<ProxyEntity>): Promise<void> {
    await this.transaction(async (em) => {
      await em.insert(FileEntity, em.create(FileEntity, file));
      await em.insert(ProxyEntity, em.create(ProxyEntity, proxy));
    });
  }

  /** The asset's current version, or null. */
  async currentVersion(assetId: string): Promise<string | null> {
    return (await this.manager.findOneBy(AssetEntity, { id: assetId }))?.current_version_id ?? null;
  }

  /** Whether `versionId` is a version of the asset. */
  async isVersionOf(assetId: string, versionId: string): Promise<boolean> {
    return this.manager.existsBy(AssetVersionEntity, { id: versionId, asset_id: assetId });
  }

  /** A page of the asset's proxies (of one version when given), oldest first. */
  async page(
    assetId: string,
    versionId: string | null,
    skip: number,
    take: number,
  ): Promise<[ProxyWithFile[], number]> {
    const [rows, total] = await this.manager.findAndCount(ProxyEntity, {
      where: { asset_id: assetId, ...(versionId ? { version_id: versionId } : {}) },
      relations: { file: true },
      order: { date_created: 'ASC', id: 'ASC' },
      skip,
      take,
    });
    return [rows as ProxyWithFile[], total];
  }

  /** The asset's proxy with its file, or null. */
  async one(assetId: string, id: string): Promise<ProxyWithFile | null> {
    const row = await this.manager.findOne(ProxyEntity, {
      where: { id, asset_id: assetId },
      relations: { file: true },
    });
    return row as ProxyWithFile | null;
  }

  /** The asset's proxies (one, of one version, or all), locked for their removal in `em`'s transaction. */
  async lockForRemoval(
    em: EntityManager,
    assetId: string,
    which: { id?: string; versionId?: string },
  ): Promise<ProxyEntity[]> {
    return em.find(ProxyEntity, {
      where: {
        asset_id: assetId,
        ...(which.id ? { id: which.id } : {}),
        ...(which.versionId ? { version_id: which.versionId } : {}),
      },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Changes a proxy; a new filename is its file's name too (the download's Content-Disposition). */
  async update(p: Pick<ProxyEntity, 'id' | 'file_id'>, changes: Partial<ProxyEntity>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.transaction(async (em) => {
      await em.update(ProxyEntity, { id: p.id }, changes as Parameters<EntityManager['update']>[2]);
      if (changes.filename !== undefined)
        await em.update(FileEntity, { id: p.file_id }, { original_name: changes.filename });
    });
  }

  async deleteRows(em: EntityManager, ids: string[]): Promise<void> {
    if (ids.length > 0) await em.delete(ProxyEntity, ids);
  }
}
