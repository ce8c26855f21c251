import type { ConfigOf } from '../../base/config/namespace.js';
import { FILES_CONFIG } from './files-config.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../base/common/clock.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { deriveKey, serviceSecret } from '../../base/keys/key-encryption.js';

/** What a signed link lets its holder do, each bound to one object's id. */
export type LinkPurpose = 'upload' | 'file' | 'keyframe';

export const UPLOAD_PATH = '/API/files/v1/upload';
export const DOWNLOAD_PATH = '/API/files/v1/download';

/**
 * Signed, short-lived links that need no credential header: the resumable upload of one file, the download
 * of one closed file or keyframe. The signature is an HMAC-SHA256 (key derived from the service secret with
 * its own label) over the purpose, the object's id and the expiry, compared in constant time; it travels in
 * the query string, which the access log never writes.
 */
@Injectable()
export class FileLinks {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    @Inject(FILES_CONFIG.token) private readonly filesConfig: ConfigOf<typeof FILES_CONFIG>,
    private readonly clock: Clock,
  ) {
    this.key = deriveKey(serviceSecret(config), 'files-signed-links');
  }

  uploadUrl(fileId: string): string {
    return this.url(`${UPLOAD_PATH}/${fileId}/`, 'upload', fileId, this.filesConfig.uploadUrlTtlSeconds);
  }

  fileDownloadUrl(fileId: string): string {
    return this.downloadUrl('files', 'file', fileId);
  }

  keyframeUrl(keyframeId: string): string {
    return this.downloadUrl('keyframes', 'keyframe', keyframeId);
  }

  /** True when `signature` is this service's for the purpose, id and expiry, and the expiry has not passed. */
  verify(purpose: LinkPurpose, id: string, expires: unknown, signature: unknown): boolean {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires))
      return false;
    if (Number(expires) * 1000 <= this.clock.now().getTime()) return false;
    const expected = this.sign(purpose, id, expires);
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The download link of one closed file or keyframe: DOWNLOAD_PATH/{files|keyframes}/{id}/. */
  private downloadUrl(segment: 'files' | 'keyframes', purpose: LinkPurpose, id: string): string {
    return this.url(
      `${DOWNLOAD_PATH}/${segment}/${id}/`,
      purpose,
      id,
      this.filesConfig.downloadUrlTtlSeconds,
    );
  }

  private url(path: string, purpose: LinkPurpose, id: string, ttlSeconds: number): string {
    const expires = String(Math.floor(this.clock.now().getTime() / 1000) + ttlSeconds);
    const signature = this.sign(purpose, id, expires).toString('utf8');
    return `${this.config.http.publicBaseUrl}${path}?expires=${expires}&signature=${signature}`;
  }

  private sign(purpose: LinkPurpose, id: string, expires: string): Buffer {
    const mac = createHmac('sha256', this.key).update(`${purpose}\n${id.toLowerCase()}\n${expires}`).digest();
    return Buffer.from(mac.toString('base64url'), 'utf8');
  }
}
