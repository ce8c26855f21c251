import { ApiProperty } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import {
  BoolField,
  EnumField,
  IntField,
  ObjectField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { FILE_STATUSES } from '../../../base/model/file.entity.js';
import { DeclaredSizeField } from './declared-size-field.js';

const NAME = 'A file name: no "/", "\\", NUL or control characters, not "." or ".."';

/** The descriptive fields of a proxy, set at creation and by PUT/PATCH (each optional). */
export class ProxyFieldsDto {
  @StringField({ required: false, minLength: 1, maxLength: 255, description: 'Shown name' }) name?: string;
  @StringField({ required: false, minLength: 1, maxLength: 255, description: NAME }) filename?: string;
  @StringField({ required: false, nullable: true, maxLength: 100, description: 'Container, e.g. MP4' })
  format?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 100 }) codec?: string | null;
  @IntField({ required: false, nullable: true, min: 0, max: 2_147_483_647 }) audio_bitrate?: number | null;
  @IntField({ required: false, nullable: true, min: 0, max: 2_147_483_647 }) bit_rate?: number | null;
  @StringField({ required: false, nullable: true, maxLength: 32, description: 'e.g. 25 or 30000/1001' })
  frame_rate?: string | null;
  @BoolField({ required: false }) is_drop_frame?: boolean;
  @BoolField({ required: false }) is_public?: boolean;
  @ObjectField({ required: false, nullable: true, description: '{width, height}' }) resolution?: Record<
    string,
    unknown
  > | null;
  @IntField({ required: false, nullable: true, min: -360, max: 360 }) rotation?: number | null;
  @StringField({ required: false, nullable: true, maxLength: 32, description: 'e.g. 00:00:00:00' })
  start_time_code?: string | null;
}

/** Body of POST …/proxies/: the proxy and the file that will hold its bytes (created OPEN). */
export class CreateProxyDto extends ProxyFieldsDto {
  @DeclaredSizeField({
    nullable: true,
    description: 'Declared size in bytes (else the upload’s total decides)',
  })
  size?: number | null;
  @UuidField({ required: false, nullable: true, description: 'Default: the domain’s PROXIES storage' })
  storage_id?: string | null;
  @UuidField({ required: false, nullable: true, description: 'Default: the asset’s current version' })
  version_id?: string | null;
  @EnumField(['OPEN'], { required: false, description: 'A proxy starts OPEN' }) status?: string;
}

/** Body of PUT/PATCH …/proxies/{proxy_id}/: status CLOSED ends the upload (size checked, checksum kept). */
export class UpdateProxyDto extends ProxyFieldsDto {
  @EnumField(FILE_STATUSES, {
    required: false,
    description: 'CLOSED once every byte arrived; the status it has already is accepted and changes nothing',
  })
  status?: string;
}

export class ProxyDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'uuid' }) asset_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) version_id!: string | null;
  @ApiProperty({ format: 'uuid', description: 'The file of the asset that holds the bytes' })
  file_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() filename!: string;
  @ApiProperty({ nullable: true, type: String }) format!: string | null;
  @ApiProperty({ nullable: true, type: String }) codec!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) audio_bitrate!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) bit_rate!: number | null;
  @ApiProperty({ nullable: true, type: String }) frame_rate!: string | null;
  @ApiProperty() is_drop_frame!: boolean;
  @ApiProperty() is_public!: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) resolution!: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ type: 'integer', nullable: true }) rotation!: number | null;
  @ApiProperty({ nullable: true, type: String }) start_time_code!: string | null;
  @ApiProperty({ enum: FILE_STATUSES }) status!: string;
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true }) size!: number | null;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Bytes received so far' }) received!: number;
  @ApiProperty({ nullable: true, type: String, description: 'sha256:<hex>, recorded at CLOSED' })
  checksum!: string | null;
  @ApiProperty({ format: 'uuid' }) storage_id!: string;
  @ApiProperty({ enum: ['FILE', 'S3'] }) storage_method!: string;
  @ApiProperty({ enum: ['RESUMABLE'] }) upload_method!: string;
  @ApiProperty({ nullable: true, type: String, description: 'While OPEN: the signed resumable upload URL' })
  upload_url!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Once CLOSED: a signed, short-lived download URL',
  })
  url!: string | null;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}
export class ProxyListDto extends ListEnvelopeDto(ProxyDto) {}

export class ProxyDownloadUrlDto {
  @ApiProperty({ description: 'Signed, short-lived; answers Range requests' }) url!: string;
  @ApiProperty({ format: 'date-time' }) expires!: string;
}
