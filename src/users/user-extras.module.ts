import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { PhotoUploadInterceptor } from './photo-upload.interceptor.js';
import { UserExtrasController } from './user-extras.controller.js';
import { UserExtrasService } from './user-extras.service.js';

/** Users routes beyond the CRUD (photos, one role, reindex); mounted before UsersModule (fixed paths first). */
@Module({
  imports: [WebhooksModule],
  controllers: [UserExtrasController],
  providers: [UserExtrasService, PhotoUploadInterceptor],
})
export class UserExtrasModule {}
