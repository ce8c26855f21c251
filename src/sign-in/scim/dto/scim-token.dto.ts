import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';

/** A provisioning token lasts a year unless asked otherwise (at least a day, at most two years). */
export const SCIM_TOKEN_TTL = { default: 365 * 86400, min: 86400, max: 2 * 365 * 86400 };

export class CreateScimTokenDto {
  @ApiPropertyOptional({
    description: 'Lifetime in seconds: at least a day, at most two years; default a year',
    minimum: SCIM_TOKEN_TTL.min,
    maximum: SCIM_TOKEN_TTL.max,
  })
  @IsOptional()
  @IsInt()
  @Min(SCIM_TOKEN_TTL.min)
  @Max(SCIM_TOKEN_TTL.max)
  expires_in?: number;
}

export class ScimTokenDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({
    format: 'uuid',
    description: 'The administrator the token acts for (it works while they are one)',
  })
  created_by!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) expires!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_used!: string | null;
}

export class ScimTokenListDto extends ListEnvelopeDto(ScimTokenDto) {}

export class ScimTokenCreatedDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The bearer token for the identity provider: shown only in this answer' })
  token!: string;
  @ApiProperty({
    description: 'The SCIM service’s base URL, for the identity provider',
    example: 'https://auth.example.com/API/scim/v2',
  })
  base_url!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) expires!: string;
}
