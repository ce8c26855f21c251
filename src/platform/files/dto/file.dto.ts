import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsObject, IsOptional, ValidateIf } from 'class-validator';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { findHostileInput } from '../../../base/common/validation/hostile-input.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import {
  DateTimeField,
  EnumField,
  IntField,
  StringArrayField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { FILE_STATUSES, FILE_TYPES, KEYFRAME_TYPES } from '../../../base/model/file.entity.js';
import { DeclaredSizeField } from './declared-size-field.js';

const MEDIA_TYPES = 'array of objects such as {internet_media_type}';

/**
 * A format's `metadata`: at most 50 objects. The rules are applied in this order, so a value breaking several
 * is answered with the first one's message.
 */
function FormatMetadataField(description?: string): PropertyDecorator {
  return applyDecorators(
    IsObject({ each: true }),
    ArrayMaxSize(50),
    IsArray(),
    IsOptional(),
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'object', additionalProperties: true },
      description,
    }),
  );
}

/** Body of POST …/formats/. */
export class CreateFormatDto {
  @StringField({ minLength: 1, maxLength: 200 }) name!: string;
  @UuidField({ required: false, nullable: true }) user_id?: string | null;
  @FormatMetadataField(MEDIA_TYPES) metadata?: Record<string, unknown>[];
  @StringArrayField({ required: false, maxItems: 20, itemMaxLength: 50 }) storage_methods?: string[];
}

export class UpdateFormatDto {
  @StringField({ required: false, minLength: 1, maxLength: 200 }) name?: string;
  @FormatMetadataField() metadata?: Record<string, unknown>[];
  @StringArrayField({ required: false, maxItems: 20, itemMaxLength: 50 }) storage_methods?: string[];
}

export class FormatDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'uuid' }) asset_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) version_id!: string | null;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) user_id!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  metadata!: unknown[];
  @ApiProperty({ type: [String] }) storage_methods!: string[];
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  components!: unknown[];
  @ApiProperty() status!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}
export class FormatListDto extends ListEnvelopeDto(FormatDto) {}

/** Body of POST …/file_sets/. */
export class CreateFileSetDto {
  @StringField({ minLength: 1, maxLength: 200 }) name!: string;
  @UuidField({ required: false, nullable: true }) format_id?: string | null;
  @UuidField({ required: false, nullable: true }) storage_id?: string | null;
  @StringField({ required: false, maxLength: 1000 }) base_dir?: string;
  @StringArrayField({ required: false, maxItems: 100, itemMaxLength: 100 }) component_ids?: string[];
}

export class UpdateFileSetDto {
  @StringField({ required: false, minLength: 1, maxLength: 200 }) name?: string;
  @StringField({ required: false, maxLength: 1000 }) base_dir?: string;
  @StringArrayField({ required: false, maxItems: 100, itemMaxLength: 100 }) component_ids?: string[];
}

export class FileSetDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'uuid' }) asset_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) format_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) storage_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) version_id!: string | null;
  @ApiProperty() name!: string;
  @ApiProperty() base_dir!: string;
  @ApiProperty({ type: [String] }) component_ids!: string[];
  @ApiProperty({ type: 'integer' }) file_count!: number;
  @ApiProperty() status!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}
export class FileSetListDto extends ListEnvelopeDto(FileSetDto) {}

/**
 * A file's `metadata`: an object, or (as published clients send it) that object as a JSON string ("{}").
 * A string that is not a JSON object (or holds what a body may not: findHostileInput) stays a string, which
 * IsObject refuses: 400, nothing stored.
 */
function MetadataField(): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({
      oneOf: [
        { type: 'object', additionalProperties: true },
        { type: 'string', description: 'The object as JSON text, e.g. "{}"' },
      ],
    })(target, key);
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') return value;
      try {
        const parsed: unknown = JSON.parse(value);
        // what the hostile-input pipe refuses in a body, refused in the parsed text too (a NUL, depth)
        const object = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
        return object && findHostileInput(parsed) === null ? parsed : value;
      } catch {
        return value;
      }
    })(target, key);
    ValidateIf((_o, v) => v !== undefined)(target, key);
    IsObject({ message: 'must be an object, or an object as a JSON string' })(target, key);
  };
}

/** `generate_signed_url=true`: reads of CLOSED files (and keyframes) carry a signed download `url`. */
function SignedUrlFlag(): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ type: Boolean, description: 'true: fill `url` with a signed download link' })(
      target,
      key,
    );
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    )(target, key);
    IsOptional()(target, key);
    IsBoolean({ message: 'must be true or false' })(target, key);
  };
}

export class SignedUrlQueryDto {
  @SignedUrlFlag() generate_signed_url?: boolean;
}

export class FilePageQueryDto extends PageQueryDto {
  @SignedUrlFlag() generate_signed_url?: boolean;
}

const NAME = 'A file name: no "/", "\\", NUL or control characters, not "." or ".."';

/** Body of POST …/files/. */
export class CreateFileDto {
  @StringField({ minLength: 1, maxLength: 255, description: NAME }) original_name!: string;
  @StringField({
    maxLength: 1000,
    description: 'Relative; no ".." segment. "/" or a leading "/" names the root: "/a/b" is "a/b"',
  })
  directory_path!: string;
  @EnumField(FILE_TYPES) type!: string;
  @DeclaredSizeField({ description: 'Declared size in bytes' }) size?: number | null;
  @MetadataField() metadata?: Record<string, unknown>;
  @UuidField({ required: false, nullable: true }) format_id?: string | null;
  @UuidField({ required: false, nullable: true }) file_set_id?: string | null;
  @UuidField({ required: false, nullable: true }) storage_id?: string | null;
  @DateTimeField({ required: false, nullable: true }) file_date_created?: string | null;
  @DateTimeField({ required: false, nullable: true }) file_date_modified?: string | null;
}

/** Body of PATCH …/files/{file_id}/: CLOSED ends the upload (the size and a checksum are checked then). */
export class UpdateFileDto {
  @EnumField(['OPEN', 'CLOSED'], { required: false }) status?: string;
  @IntField({ required: false, min: 0, max: 100 }) progress_processed?: number;
  @MetadataField() metadata?: Record<string, unknown>;
}

export class FileDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'uuid' }) asset_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) version_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) format_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) file_set_id!: string | null;
  @ApiProperty({ format: 'uuid' }) storage_id!: string;
  @ApiProperty() original_name!: string;
  @ApiProperty() directory_path!: string;
  @ApiProperty({ enum: FILE_TYPES }) type!: string;
  @ApiProperty({ enum: FILE_STATUSES }) status!: string;
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true }) size!: number | null;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Bytes received so far' }) received!: number;
  @ApiProperty({ type: 'integer' }) progress_processed!: number;
  @ApiProperty({ nullable: true, type: String, description: 'sha256:<hex>, recorded at CLOSED' })
  checksum!: string | null;
  @ApiProperty({ nullable: true, type: String }) content_type!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({ enum: ['FILE', 'S3'] }) storage_method!: string;
  @ApiProperty({ nullable: true, type: String, description: 'While OPEN: the signed resumable upload URL' })
  upload_url!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'With generate_signed_url=true, of a CLOSED file: a signed download link',
  })
  url!: string | null;
  @ApiProperty({ enum: ['RESUMABLE'] }) upload_method!: string;
  @ApiProperty() upload_filename!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) file_date_created!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) file_date_modified!: string | null;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}
export class FileListDto extends ListEnvelopeDto(FileDto) {}

export class ComposeUrlDto {
  @StringField({ required: false, nullable: true, maxLength: 200 }) parts_group?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) content_type?: string | null;
}

export class ComposeUrlAnswerDto {
  @ApiProperty({ description: 'The upload is composed as it arrives: the same signed upload URL' })
  compose_url!: string;
  @ApiProperty({ nullable: true, type: String }) delete_url!: string | null;
  @ApiProperty({ description: 'The object key the bytes are stored under' }) key!: string;
  @ApiProperty() url!: string;
}

export class DownloadUrlDto {
  @ApiProperty({ description: 'Signed, short-lived; answers Range requests' }) url!: string;
  @ApiProperty({ format: 'date-time' }) expires!: string;
}

export class KeyframesStartedDto {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
}

/** KeyframeSchema's fields (the published ones) beside this service's own (file_id, job_id, position). */
export class KeyframeDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'uuid' }) asset_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) version_id!: string | null;
  @ApiProperty({ format: 'uuid' }) file_id!: string;
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ enum: KEYFRAME_TYPES }) type!: string;
  @ApiProperty() filename!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['jpg'] }) format!: string;
  @ApiProperty({ type: 'integer' }) position!: number;
  @ApiProperty({ type: 'integer', format: 'int64' }) size!: number;
  @ApiProperty({
    type: 'object',
    properties: { width: { type: 'integer', nullable: true }, height: { type: 'integer', nullable: true } },
  })
  resolution!: { width: number | null; height: number | null };
  @ApiProperty({
    type: 'object',
    description: 'Where in the file the image was taken: one a second from the start',
    properties: { seconds: { type: 'number' }, frames: { type: 'integer' } },
  })
  time_code!: { seconds: number; frames: number };
  @ApiProperty({ enum: FILE_STATUSES }) status!: string;
  @ApiProperty({ format: 'uuid' }) storage_id!: string;
  @ApiProperty({ enum: ['FILE', 'S3'] }) storage_method!: string;
  @ApiProperty() is_custom_keyframe!: boolean;
  @ApiProperty() is_public!: boolean;
  @ApiProperty({ type: 'integer' }) rotation!: number;
  @ApiProperty({ description: 'Signed, short-lived JPEG download' }) url!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}
export class KeyframeListDto extends ListEnvelopeDto(KeyframeDto) {}
