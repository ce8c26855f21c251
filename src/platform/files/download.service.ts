import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { ByteStores } from './byte-stores.js';
import { parseByteRange } from './content-range.js';
import { FilesErrors } from './files.errors.js';
import { FilesRepository } from './files.repository.js';

export interface Download {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
}

/** "name.mp4" as a Content-Disposition: an ASCII fallback without quotes or controls, and the UTF-8 name. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The bytes behind a signed download link (checked by the controller): a CLOSED file of an asset that is not
 * deleted (always as application/octet-stream and an attachment: a stored HTML or SVG file never runs on this
 * service's origin), or a keyframe (image/jpeg); one `Range` (206, or 416 when it lies past the end), streamed from the storage.
 */
@Injectable()
export class DownloadService {
  constructor(
    private readonly repo: FilesRepository,
    private readonly stores: ByteStores,
  ) {}

  async file(id: string, range: string | undefined): Promise<Download> {
    const f = await this.repo.closedFileOfLiveAsset(id);
    if (!f) throw FilesErrors.FILE_NOT_FOUND();
    return this.stream(f.storage_id, f.object_key, Number(f.size), range, {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': disposition(f.original_name),
    });
  }

  async keyframe(id: string, range: string | undefined): Promise<Download> {
    const k = await this.repo.keyframeOfLiveAsset(id);
    if (!k) throw FilesErrors.KEYFRAME_NOT_FOUND();
    return this.stream(k.storage_id, k.object_key, Number(k.size), range, { 'Content-Type': 'image/jpeg' });
  }

  private async stream(
    storageId: string,
    key: string,
    size: number,
    rangeHeader: string | undefined,
    headers: Record<string, string>,
  ): Promise<Download> {
    const storage = await this.repo.storageOf(storageId);
    const store = this.stores.of(storage);
    const range = parseByteRange(rangeHeader, size);
    const common = {
      ...headers,
      'Accept-Ranges': 'bytes',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, no-store',
    };
    if (range === 'unsatisfiable') {
      const err = FilesErrors.UNSATISFIABLE();
      Object.assign(err.headers, { 'Content-Range': `bytes */${size}` });
      throw err;
    }
    if (range === null || size === 0) {
      const body = size === 0 ? emptyStream() : await store.read(key);
      return { status: 200, headers: { ...common, 'Content-Length': String(size) }, body };
    }
    return {
      status: 206,
      headers: {
        ...common,
        'Content-Length': String(range.end - range.start + 1),
        'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
      },
      body: await store.read(key, range),
    };
  }
}

const emptyStream = (): Readable => Readable.from([]);
