import { AccessService } from '../common/auth/access.service.js';
import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { AppsController } from './apps.controller.js';
import { AppsService } from './apps.service.js';
import { ExternalAuthController } from './external-auth.controller.js';
import { ExternalAuthService } from './external-auth.service.js';

@Module({
  imports: [WebhooksModule],
  // fixed paths first: Express matches in registration order, and /v1/apps/{app_id}/ would take them
  controllers: [ExternalAuthController, AppsController],
  providers: [AppsService, ExternalAuthService],
})
export class AppsModule {
  constructor(access: AccessService) {
    access.registerQuery(
      'app',
      'App',
      'SELECT id FROM apps WHERE id = ANY($1::uuid[]) AND system_domain_id = $2 AND NOT is_builtin',
    );
  }
}
