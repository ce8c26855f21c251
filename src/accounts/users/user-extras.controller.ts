import { Controller, Param, Res, UploadedFiles } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ImageRoutes, ImageUpload, sendImage } from '../../base/common/http/image-routes.js';
import type { UploadedImage } from '../../base/common/http/image-upload.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { PhotoUploadInterceptor } from './photo-upload.interceptor.js';
import { UserExtrasService } from './user-extras.service.js';
import { ReindexRequestDto } from '../../base/common/http/reindex-request.dto.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const userAccess = { entity: 'user' as const, param: 'user_id' };
const PHOTO =
  'one PNG, JPEG, GIF or WebP image (judged by its bytes), at most 1 MiB; shown in the caller’s domain';

class PhotoDto {
  @ApiProperty({ description: 'Where the photo is served (a path starting with /API/)' }) photo!: string;
}
class UserRoleDto {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() role!: string;
}
class UserReindexDto extends ReindexRequestDto {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
}

const extras = ServiceRoutes<UserExtrasService>('extras');
const userId = input.uuidParam('user_id');

const photo = ImageRoutes({
  path: ':user_id/photo',
  interceptor: PhotoUploadInterceptor,
  field: 'photo',
  write: { roles: ['can_write_users'], access: userAccess },
  read: { access: userAccess },
  uploaded: { status: 201, type: PhotoDto },
  uploadErrors: [404],
  missing: 'No such user, or no photo',
  summaries: {
    upload: `Set a user’s photo: ${PHOTO}`,
    remove: 'Remove a user’s photo (in the caller’s domain)',
    get: 'A user’s photo as the caller’s domain shows it (any member): nosniff, a CSP that runs nothing',
  },
});

/** A user's photo itself, written out (the image is its own answer), before the role and reindex routes. */
abstract class UserPhotoGet extends extras.handlers({
  getUserRole: extras.call(
    'hasRole',
    Route.get(':user_id/roles/:role', {
      summary: 'Whether a user holds one role in the caller’s domain: 200, else 404',
      policy: { roles: ['can_read_users'], access: userAccess },
      ok: UserRoleDto,
      errors: [{ 404: 'No such user, or the user lacks the role' }],
    }),
    input.caller,
    userId,
    input.param('role'),
  ),
  reindexUser: extras.call(
    'reindex',
    Route.post(':user_id/reindex', {
      summary:
        'Ask the platform’s indexer to reindex a user: this service keeps no index, it records the event',
      policy: { roles: ['can_write_users'], access: userAccess },
      created: UserReindexDto,
      errors: [404],
    }),
    input.caller,
    userId,
  ),
}) {
  protected abstract readonly extras: UserExtrasService;

  @photo.get
  async getUserPhoto(
    @Param('user_id', uuid) id: string,
    @Caller() caller: AuthContext,
    @Res() res: Response,
  ) {
    sendImage(res, await this.extras.photo(caller, id));
  }
}

/** A user's photo upload, written out (the uploaded files), before its removal and the photo itself. */
abstract class UserPhotoRoutes extends extras.handlers(
  { deleteUserPhoto: extras.call('deletePhoto', photo.remove, input.caller, userId) },
  UserPhotoGet,
) {
  @photo.upload
  setUserPhoto(
    @Param('user_id', uuid) id: string,
    @UploadedFiles() files: UploadedImage[] | undefined,
    @Caller() caller: AuthContext,
  ) {
    return this.extras.setPhoto(caller, id, files) as Promise<PhotoDto>;
  }
}

/**
 * Users routes of the published service beyond the CRUD: photos, one role, reindex. The uploads are written
 * out (the uploaded files) and each comes before its table: Nest registers a class's own routes first.
 */
@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users')
export class UserExtrasController extends extras.handlers(
  {
    deleteCurrentUserPhoto: extras.handle(
      Route.delete('current/photo', {
        summary: 'Remove the caller’s photo (in the caller’s domain)',
        policy: {},
        noContent: 'Removed',
        errors: [{ 404: 'No photo' }],
      }),
      (s, c) => s.deletePhoto(c, c.userId),
      input.caller,
    ),
  },
  UserPhotoRoutes,
) {
  constructor(protected readonly extras: UserExtrasService) {
    super();
  }

  // current/ before /{user_id}
  @Route.post('current/photo', { summary: `Set the caller’s photo: ${PHOTO}`, policy: {}, created: PhotoDto })
  @ImageUpload(PhotoUploadInterceptor, 'photo')
  setCurrentUserPhoto(@UploadedFiles() files: UploadedImage[] | undefined, @Caller() caller: AuthContext) {
    return this.extras.setPhoto(caller, caller.userId, files) as Promise<PhotoDto>;
  }
}
