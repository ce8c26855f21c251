import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../base/common/auth/authenticated.decorator.js';
import { SERVICE_VERSION } from './openapi.js';

class ServiceIndexDto {
  @ApiProperty({ example: 'portcullis' }) service!: string;
  @ApiProperty({
    example: SERVICE_VERSION,
    description: 'The version of the interface (the OpenAPI document’s)',
  })
  version!: string;
  @ApiProperty({ description: 'This service’s OpenAPI 3.0.3 document (JSON), a path starting with /API/' })
  spec!: string;
  @ApiProperty({ description: 'The document in Swagger UI' }) spec_ui!: string;
  @ApiProperty({ description: 'Liveness and readiness' }) health!: string[];
}

/** GET /API/auth/: a small index of the service (the spec lists the path without its payload). */
@ApiTags('health')
@Public()
@Controller('API/auth')
export class ServiceIndexController {
  @Get()
  @ApiOperation({ summary: 'The service’s index: its name and version, and where its spec and UI are' })
  @ApiOkResponse({ type: ServiceIndexDto })
  getServiceIndex(): ServiceIndexDto {
    return {
      service: 'portcullis',
      version: SERVICE_VERSION,
      spec: '/API/auth/spec/',
      spec_ui: '/API/auth/spec/ui/',
      health: ['/API/auth/livez/', '/API/auth/readyz/'],
    };
  }
}
