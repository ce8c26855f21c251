import { Module } from '@nestjs/common';
import { AppsController } from './apps.controller.js';
import { AppsService } from './apps.service.js';
import { ExternalAuthController } from './external-auth.controller.js';
import { ExternalAuthService } from './external-auth.service.js';

@Module({
  // fixed paths first: Express matches in registration order, and /v1/apps/{app_id}/ would take them
  controllers: [ExternalAuthController, AppsController],
  providers: [AppsService, ExternalAuthService],
})
export class AppsModule {}
