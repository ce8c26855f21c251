import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { ObjectField, StringField, UuidField } from '../../../base/common/validation/fields.js';

export class RedirectInfoDto {
  @StringField({ required: false, nullable: true, maxLength: 2000 }) url?: string | null;
  @ObjectField({ required: false, nullable: true }) headers?: Record<string, string> | null;
}

export class ExternalAuthRequestDto {
  @StringField({
    minLength: 32,
    maxLength: 512,
    description: 'Random secret (≥ 32 characters) the external program will collect the token with',
  })
  secret!: string;
  @UuidField({ required: false }) app_id?: string;
  @StringField({ required: false, maxLength: 200, description: 'Used to find the app when app_id is absent' })
  app_name?: string;
  @ApiPropertyOptional({ type: RedirectInfoDto, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => RedirectInfoDto)
  redirect_info?: RedirectInfoDto | null;
}

/** Path of the collection: the same bounds as the secret given at approval, so a short one is a 400. */
export class ExternalAuthSecretParamDto {
  @StringField({ minLength: 32, maxLength: 512, description: 'The secret given at approval' })
  secret!: string;
}

export class ExternalAuthRequestResponseDto {
  @ApiProperty({ format: 'uuid' }) app_id!: string;
  @ApiProperty({ type: RedirectInfoDto, nullable: true }) redirect_info!: RedirectInfoDto | null;
}

export class ExternalAuthDto {
  @ApiProperty({ readOnly: true }) app_id!: string;
  @ApiProperty({ readOnly: true }) token!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ type: RedirectInfoDto, nullable: true }) redirect_info!: RedirectInfoDto | null;
}

export class ApprovedAppInstanceDto {
  @UuidField() app_id!: string;
  @UuidField({ description: 'The instance id, chosen (randomly) by the instance' }) id!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
}
