import { Injectable } from '@nestjs/common';
import { ImageUploadInterceptor } from '../../base/common/http/image-upload.js';
import { UsersErrors } from './users.errors.js';

/** A user photo: a raw image/* body or multipart ("photo" or "file"), at most 1 MiB. */
@Injectable()
export class PhotoUploadInterceptor extends ImageUploadInterceptor {
  protected readonly rawField = 'photo';
  protected readonly errors = {
    tooLarge: () => UsersErrors.PHOTO_TOO_LARGE(),
    missing: () => UsersErrors.PHOTO_MISSING(),
    invalid: UsersErrors.INVALID,
  };
}
