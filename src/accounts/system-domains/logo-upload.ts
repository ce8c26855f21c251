import { Injectable } from '@nestjs/common';
import { ImageUploadInterceptor } from '../../base/common/http/image-upload.js';
import { SystemDomainsErrors } from './system-domains.errors.js';

/**
 * Reads a domain logo upload: multipart/form-data (field "logo" or "file"), or a raw `image/*` body as the
 * published clients send it (see ImageUploadInterceptor for the limits). Errors are the feature's own (413 for
 * a file too large, 400 for anything else).
 */
@Injectable()
export class LogoUploadInterceptor extends ImageUploadInterceptor {
  protected readonly rawField = 'logo';
  protected readonly errors = {
    tooLarge: () => SystemDomainsErrors.LOGO_TOO_LARGE(),
    missing: () => SystemDomainsErrors.LOGO_MISSING(),
    invalid: SystemDomainsErrors.INVALID,
  };
}
