import { AccessService } from '../../base/common/auth/access.service.js';
import { Module } from '@nestjs/common';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { AppsController } from './apps.controller.js';
import { AppsRepository } from './apps.repository.js';
import { AppsService } from './apps.service.js';
import { ExternalAuthController } from './external-auth.controller.js';
import { ExternalAuthService } from './external-auth.service.js';

@Module({
  imports: [EventsModule, AuditModule],
  // fixed paths first: Express matches in registration order, and /v1/apps/{app_id}/ would take them
  controllers: [ExternalAuthController, AppsController],
  providers: [AppsService, ExternalAuthService, AppsRepository],
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
