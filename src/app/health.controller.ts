import { Controller, Get, HttpCode, Req } from '@nestjs/common';
import { unavailable } from '../base/common/errors/request.errors.js';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../base/common/http/api-errors.js';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { HealthRepository } from './health.repository.js';
import { Public } from '../base/common/auth/authenticated.decorator.js';

class StatusDto {
  @ApiProperty({ example: 'ok' }) status!: string;
}
class IpDto {
  @ApiProperty({ example: '203.0.113.7' }) ip!: string;
}

@ApiTags('health')
@Public()
@Controller('API/auth')
export class HealthController {
  private readonly repo: HealthRepository;

  constructor(@InjectDataSource() ds: DataSource) {
    this.repo = new HealthRepository(ds);
  }

  @Get('livez')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: StatusDto })
  getLiveness(): StatusDto {
    return { status: 'ok' };
  }

  @Get('readyz')
  @HttpCode(200)
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ type: StatusDto })
  @ApiErrors(503)
  async getReadiness(): Promise<StatusDto> {
    try {
      await this.repo.ping();
    } catch {
      throw unavailable('Database unreachable');
    }
    return { status: 'ok' };
  }

  @Get('ip')
  @ApiOperation({ summary: "The caller's IP address as this service sees it (honours TRUST_PROXY)" })
  @ApiOkResponse({ type: IpDto })
  getCallerIp(@Req() req: Request): IpDto {
    return { ip: req.ip ?? '' };
  }
}
