import { Module } from '@nestjs/common';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { MembershipsRepository } from './memberships.repository.js';
import { PartnerAccessController } from './partner-access.controller.js';
import { PartnerAccessService } from './partner-access.service.js';
import { PhotoUploadInterceptor } from './photo-upload.interceptor.js';
import { UserExtrasController } from './user-extras.controller.js';
import { UserExtrasService } from './user-extras.service.js';

/**
 * Users routes beyond the CRUD (photos, one role, reindex, partner domain access); mounted before UsersModule
 * (fixed paths first: partner_domain_access/ is never a {user_id}).
 */
@Module({
  imports: [EventsModule, AuditModule],
  controllers: [PartnerAccessController, UserExtrasController],
  providers: [UserExtrasService, PhotoUploadInterceptor, PartnerAccessService, MembershipsRepository],
})
export class UserExtrasModule {}
