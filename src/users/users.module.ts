import { Module } from '@nestjs/common';

/** Users and groups endpoints (API-CONTRACT §3). */
@Module({})
export class UsersModule {}
