import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessService, sqlAccessChecker } from '../common/auth/access.service.js';
import { Module } from '@nestjs/common';
import { GroupsController } from './groups.controller.js';
import { GroupsService } from './groups.service.js';

/** Groups endpoints (API-CONTRACT §3): groups carry roles, users belong to groups. */
@Module({
  controllers: [GroupsController],
  providers: [GroupsService],
})
export class GroupsModule {
  constructor(access: AccessService, @InjectDataSource() ds: DataSource) {
    access.register(
      'group',
      sqlAccessChecker(
        (sql, params) => ds.query(sql, params),
        'Group',
        'SELECT id FROM groups WHERE id = ANY($1::uuid[]) AND system_domain_id = $2',
      ),
    );
  }
}
