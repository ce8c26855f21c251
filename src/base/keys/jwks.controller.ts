import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/auth/authenticated.decorator.js';
import { JwksDto } from './jwks.dto.js';
import { SigningKeysService } from './signing-keys.service.js';

@ApiTags('oauth')
@Controller('API/auth/v1/oauth/jwks')
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get()
  @Public()
  @Header('Cache-Control', 'public, max-age=300')
  // a public document: browser apps discover the server cross-origin
  @Header('Access-Control-Allow-Origin', '*')
  @ApiOperation({ summary: 'Public keys that verify the JWTs this service signs (RFC 7517 JWK Set)' })
  @ApiOkResponse({ type: JwksDto })
  getJwks(): Promise<JwksDto> {
    return this.keys.jwks() as Promise<JwksDto>;
  }
}
