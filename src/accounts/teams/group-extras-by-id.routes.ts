import { Param, Res, UploadedFiles } from '@nestjs/common';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import type { UploadedImage } from '../../base/common/http/image-upload.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { LogoDto } from '../system-domains/dto/system-domain.dto.js';
import { GroupReindexDto } from './dto/group-mapping.dto.js';
import type { GroupLogosService } from './group-logos.service.js';
import type { GroupMappingsService } from './group-mappings.service.js';
import { ImageRoutes, sendImage } from '../../base/common/http/image-routes.js';
import { ImageBodyInterceptor } from './image-upload.interceptor.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const groupAccess = { entity: 'group', param: 'group_id' };

const logo = ImageRoutes({
  path: ':group_id/logo',
  interceptor: ImageBodyInterceptor,
  write: { roles: ['can_write_groups'], access: groupAccess },
  read: { access: groupAccess },
  uploaded: { status: 200, type: LogoDto },
  uploadErrors: [404],
  missing: 'No such group, or it has no logo',
  summaries: {
    upload: 'Set a group’s logo: one PNG, JPEG, GIF or WebP image (judged by its bytes), at most 1 MiB',
    remove: 'Remove a group’s logo',
    get: 'A group’s logo (any member of the domain): the stored image, nosniff, a CSP that runs nothing',
  },
});

const mappings = ServiceRoutes<GroupMappingsService>('mappings');
const logos = ServiceRoutes<GroupLogosService>('logos');
const groupId = input.uuidParam('group_id');

/** The logo itself, written out (the image is its own answer), the last of the groups' extra routes. */
abstract class GroupLogoGet {
  protected abstract readonly logos: GroupLogosService;

  @logo.get
  async getGroupLogo(
    @Param('group_id', uuid) id: string,
    @Caller() caller: AuthContext,
    @Res() res: Response,
  ) {
    sendImage(res, await this.logos.get('GROUP', caller, id));
  }
}

/** The logo's upload, written out (the uploaded files), before its removal and the logo itself. */
abstract class GroupLogoRoutes extends logos.handlers(
  {
    deleteGroupLogo: logos.handle(logo.remove, (s, c, i) => s.remove('GROUP', c, i), input.caller, groupId),
  },
  GroupLogoGet,
) {
  @logo.upload
  uploadGroupLogo(
    @Param('group_id', uuid) id: string,
    @UploadedFiles() files: UploadedImage[] | undefined,
    @Caller() caller: AuthContext,
  ): Promise<LogoDto> {
    return this.logos.upload('GROUP', caller, id, files);
  }
}

/**
 * The /{group_id} routes (reindex, logo) of `GroupExtrasController`, classes it extends: Nest registers a
 * controller's own routes first and inherited ones after (a class's own written routes before its table's), so
 * the route order and the route-policy keys (`<Controller>.<method>`) stay as they were.
 */
export const GroupExtrasByIdRoutes = mappings.handlers(
  {
    reindexGroup: mappings.call(
      'reindex',
      Route.post(':group_id/reindex', {
        summary:
          'Ask the platform’s indexer to reindex a group: this service keeps no index, it records the event',
        policy: { roles: ['can_write_groups'], access: groupAccess },
        created: GroupReindexDto,
        errors: [404],
      }),
      input.caller,
      groupId,
    ),
  },
  GroupLogoRoutes,
);
