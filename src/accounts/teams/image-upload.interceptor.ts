import { Injectable } from '@nestjs/common';
import { ImageUploadInterceptor } from '../../base/common/http/image-upload.js';
import { TeamsErrors } from './teams.errors.js';

/** Team and group logos, user photos: a raw image/* body or multipart ("logo" or "file"), at most 1 MiB. */
@Injectable()
export class ImageBodyInterceptor extends ImageUploadInterceptor {
  protected readonly rawField = 'logo';
  protected readonly errors = {
    tooLarge: () => TeamsErrors.IMAGE_TOO_LARGE(),
    missing: () => TeamsErrors.IMAGE_MISSING(),
    invalid: TeamsErrors.INVALID,
  };
}
