import { ApiProperty } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { BoolField, EnumField, ObjectField, StringField } from '../../../base/common/validation/fields.js';
import { FacetDto } from '../../../accounts/system-domains/dto/system-domain.dto.js';
import {
  SERVED_METHODS,
  STORAGE_METHODS,
  STORAGE_PURPOSES,
  STORAGE_STATUSES,
} from '../../../base/model/storage.entity.js';

export class StorageDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: STORAGE_METHODS }) method!: string;
  @ApiProperty({ enum: STORAGE_PURPOSES }) purpose!: string;
  @ApiProperty({ enum: STORAGE_STATUSES }) status!: string;
  @ApiProperty() scanner_status!: string;
  @ApiProperty({ nullable: true, type: String }) status_message!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Never holds a secret' })
  settings!: Record<string, unknown>;
  @ApiProperty({ description: 'The storage matching/{purpose}/ answers for its purpose' }) default!: boolean;
  @ApiProperty({ description: 'Built in (every domain uses it), or the caller’s domain’s own' })
  builtin!: boolean;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}

export class StorageFacetsDto {
  @ApiProperty({ type: FacetDto }) method!: FacetDto;
  @ApiProperty({ type: FacetDto }) purpose!: FacetDto;
  @ApiProperty({ type: FacetDto }) status!: FacetDto;
}

export class StorageListDto extends ListEnvelopeDto(StorageDto) {
  @ApiProperty({ type: StorageFacetsDto }) facets!: StorageFacetsDto;
}

export class StorageListQueryDto extends PageQueryDto {
  @EnumField(STORAGE_PURPOSES, { required: false }) purpose?: string;
}

const SETTINGS =
  'FILE: none (the service picks the directory). S3: bucket and prefix (the endpoint and credentials are the deployment’s, from the environment)';

/** Body of POST /API/files/v1/storages/ (administrators: a storage of their domain). */
export class CreateStorageDto {
  @StringField({ minLength: 1, maxLength: 200 }) name!: string;
  @EnumField(SERVED_METHODS) method!: string;
  @EnumField(STORAGE_PURPOSES) purpose!: string;
  @EnumField(STORAGE_STATUSES, { required: false }) status?: string;
  @StringField({ required: false, nullable: true, maxLength: 1000 }) status_message?: string | null;
  @ObjectField({ required: false, description: SETTINGS }) settings?: Record<string, unknown>;
  @BoolField({ required: false, description: 'Make it the domain’s storage for its purpose' })
  default?: boolean;
}

export class UpdateStorageDto {
  @StringField({ required: false, minLength: 1, maxLength: 200 }) name?: string;
  @EnumField(STORAGE_STATUSES, { required: false }) status?: string;
  @StringField({ required: false, nullable: true, maxLength: 1000 }) status_message?: string | null;
  @ObjectField({ required: false, description: SETTINGS }) settings?: Record<string, unknown>;
  @BoolField({ required: false }) default?: boolean;
}
