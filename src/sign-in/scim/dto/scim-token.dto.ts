import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';

export class CreateScimTokenDto {
  @ApiPropertyOptional({
    description: 'Lifetime in seconds: at least a day, at most two years; default a year',
    minimum: 86400,
    maximum: 63072000,
  })
  @IsOptional()
  @IsInt()
  @Min(86400)
  @Max(63072000)
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
