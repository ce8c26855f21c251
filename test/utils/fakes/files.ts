/** File and storage rows, as the file specs build them. */
import type { FileEntity } from '../../../src/base/model/file.entity.js';
import type { StorageEntity } from '../../../src/base/model/storage.entity.js';
import { NOW } from './fixtures.js';

/** File f1 of asset a1 on storage s1: clip.bin, an OPEN upload with all 5 of its bytes received, stamped NOW. */
export const fileRow = (over: Partial<FileEntity> = {}) =>
  ({
    id: 'f1',
    asset_id: 'a1',
    version_id: null,
    format_id: null,
    file_set_id: null,
    storage_id: 's1',
    object_key: 'files/f1/f1',
    original_name: 'clip.bin',
    directory_path: '',
    type: 'FILE',
    status: 'OPEN',
    size: '5',
    received: '5',
    progress_processed: 0,
    checksum: null,
    content_type: null,
    metadata: {},
    multipart_upload_id: null,
    multipart_parts: [],
    upload_lock_until: null,
    file_date_created: null,
    file_date_modified: null,
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as FileEntity;

/** Storage s1, the service's own (no domain): the FILE method, active, for files, stamped NOW. */
export const storageRow = (over: Partial<StorageEntity> = {}) =>
  ({
    id: 's1',
    system_domain_id: null,
    name: 'Files',
    method: 'FILE',
    purpose: 'FILES',
    status: 'ACTIVE',
    scanner_status: 'INACTIVE',
    status_message: null,
    settings: {},
    is_default: false,
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as StorageEntity;
