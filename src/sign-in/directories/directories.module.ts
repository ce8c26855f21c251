import { Module } from '@nestjs/common';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { FederationModule } from '../federation/federation.module.js';
import { DirectoriesController } from './directories.controller.js';
import { DirectoriesRepository } from './directories.repository.js';
import { DirectoriesService } from './directories.service.js';
import { DirectoryLoginController } from './directory-login.controller.js';
import { DirectoryLoginService } from './directory-login.service.js';

/** Company directories (LDAP, Active Directory) per domain and the sign-in against them (docs/federated-login.md). */
@Module({
  imports: [FederationModule, AuditModule],
  controllers: [DirectoriesController, DirectoryLoginController],
  providers: [DirectoriesService, DirectoriesRepository, DirectoryLoginService],
  exports: [DirectoryLoginService],
})
export class DirectoriesModule {}
