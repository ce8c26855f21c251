import { Controller, Get, HttpCode, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../base/common/http/api-errors.js';
import type { Request } from 'express';
import { HealthService } from './health.service.js';
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
  constructor(private readonly health: HealthService) {}

  @Get('livez')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: StatusDto })
  getLiveness(): StatusDto {
    return this.health.liveness();
  }

  @Get('readyz')
  @HttpCode(200)
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ type: StatusDto })
  @ApiErrors(503)
  getReadiness(): Promise<StatusDto> {
    return this.health.readiness();
  }

  @Get('ip')
  @ApiOperation({ summary: "The caller's IP address as this service sees it (honours TRUST_PROXY)" })
  @ApiOkResponse({ type: IpDto })
  getCallerIp(@Req() req: Request): IpDto {
    return { ip: req.ip ?? '' };
  }
}
