import { Module } from '@nestjs/common';
import { BootstrapService } from './bootstrap.service.js';
import { SystemDomainsService } from './system-domains.service.js';

@Module({ providers: [SystemDomainsService, BootstrapService], exports: [SystemDomainsService] })
export class SystemDomainsModule {}
