import type { ConfigOf } from '../../base/config/namespace.js';
import { FILES_CONFIG } from './files-config.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ByteStore } from './byte-store.js';
import { LocalByteStore } from './local-byte-store.js';
import { S3ByteStore } from './s3-byte-store.js';
import type { StorageEntity } from '../../base/model/storage.entity.js';

/**
 * The byte store of each storage: FILE storages under STORAGE_DIR/<storage id> (a temporary directory with
 * DATA_DIR=memory://, removed at shutdown), S3 storages in the configured object store (bucket and prefix
 * from the storage's settings, else from the environment).
 */
@Injectable()
export class ByteStores implements OnApplicationShutdown {
  private readonly dir: string;
  private readonly temporary: boolean;
  private readonly stores = new Map<string, ByteStore>();

  constructor(@Inject(FILES_CONFIG.token) private readonly filesConfig: ConfigOf<typeof FILES_CONFIG>) {
    this.temporary = filesConfig.storageDir === null;
    this.dir = filesConfig.storageDir ?? mkdtempSync(join(tmpdir(), 'portcullis-files-'));
  }

  /** Where FILE storages live (tests look under it for stray bytes). */
  get root(): string {
    return this.dir;
  }

  of(storage: Pick<StorageEntity, 'id' | 'method' | 'settings'>): ByteStore {
    let store = this.stores.get(storage.id);
    if (!store) {
      store =
        storage.method === 'S3'
          ? new S3ByteStore({
              ...this.filesConfig.s3,
              bucket: stringSetting(storage.settings, 'bucket') ?? this.filesConfig.s3.bucket,
              prefix: stringSetting(storage.settings, 'prefix') ?? this.filesConfig.s3.prefix,
            })
          : new LocalByteStore(join(this.dir, storage.id));
      this.stores.set(storage.id, store);
    }
    return store;
  }

  onApplicationShutdown(): void {
    for (const s of this.stores.values()) if (s instanceof S3ByteStore) s.close();
    if (this.temporary) rmSync(this.dir, { recursive: true, force: true });
  }
}

function stringSetting(settings: Record<string, unknown>, name: string): string | null {
  const v = settings[name];
  return typeof v === 'string' && v !== '' ? v : null;
}
