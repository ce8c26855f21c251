import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { SCIM } from '../scim-schemas.js';

const OPEN = { type: 'object', additionalProperties: true } as const;
const TEXT = 'RFC 3339 date-time';

/** RFC 7644 §3.4.2 / §3.9: a list's query (all optional). */
export class ScimListQueryDto {
  @ApiPropertyOptional({ description: 'RFC 7644 §3.4.2.2 filter, e.g. userName eq "ann@example.com"' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  filter?: string;
  @ApiPropertyOptional({ description: '1-based index of the first result', example: '1' })
  @IsOptional()
  @IsString()
  @MaxLength(12)
  startIndex?: string;
  @ApiPropertyOptional({ description: 'Results per page (at most 200; 0: the total only)', example: '100' })
  @IsOptional()
  @IsString()
  @MaxLength(12)
  count?: string;
  @ApiPropertyOptional({ description: 'Comma-separated attributes to return (id and schemas always)' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  attributes?: string;
  @ApiPropertyOptional({ description: 'Comma-separated attributes not to return' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  excludedAttributes?: string;
}

/** RFC 7644 §3.4.2.4's query of one resource: `attributes` / `excludedAttributes`. */
export class ScimResourceQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(1024) attributes?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(1024) excludedAttributes?: string;
}

export class ScimErrorDto {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:api:messages:2.0:Error'] })
  schemas!: string[];
  @ApiProperty({ description: 'The HTTP status, as a string', example: '409' }) status!: string;
  @ApiPropertyOptional({
    enum: [
      'uniqueness',
      'tooMany',
      'invalidFilter',
      'mutability',
      'invalidSyntax',
      'invalidPath',
      'noTarget',
      'invalidValue',
      'invalidVers',
      'sensitive',
    ],
  })
  scimType?: string;
  @ApiProperty() detail!: string;
}

export class ScimMetaDto {
  @ApiProperty() resourceType!: string;
  @ApiPropertyOptional({ description: TEXT }) created?: string;
  @ApiPropertyOptional({ description: TEXT }) lastModified?: string;
  @ApiPropertyOptional() location?: string;
  @ApiPropertyOptional({ description: 'Weak ETag of the resource (If-Match)', example: 'W/"3q2-7w"' })
  version?: string;
}

export class ScimNameDto {
  @ApiPropertyOptional() givenName?: string;
  @ApiPropertyOptional() familyName?: string;
}

export class ScimEmailDto {
  @ApiProperty() value!: string;
  @ApiPropertyOptional() type?: string;
  @ApiPropertyOptional() primary?: boolean;
}

export class ScimRefDto {
  @ApiProperty() value!: string;
  @ApiPropertyOptional() display?: string;
  @ApiPropertyOptional({ enum: ['User'] }) type?: string;
  @ApiPropertyOptional({ name: '$ref' }) ref?: string;
}

export class ScimManagerDto {
  @ApiPropertyOptional() value?: string;
}

export class ScimEnterpriseDto {
  @ApiPropertyOptional() department?: string;
  @ApiPropertyOptional() employeeNumber?: string;
  @ApiPropertyOptional({ type: ScimManagerDto }) manager?: ScimManagerDto;
}

/** RFC 7643 §4.1: a User (userName: the account's email), with the enterprise extension. */
export class ScimUserDto {
  @ApiProperty({ type: [String], example: [SCIM.user] }) schemas!: string[];
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional({ description: 'The account’s email address', example: 'ann@example.com' })
  userName?: string;
  @ApiPropertyOptional({ type: ScimNameDto }) name?: ScimNameDto;
  @ApiPropertyOptional() displayName?: string;
  @ApiPropertyOptional({ description: 'false: the account is inactive, its tokens revoked' })
  active?: boolean;
  @ApiPropertyOptional({ type: [ScimEmailDto] }) emails?: ScimEmailDto[];
  @ApiPropertyOptional({ type: [ScimRefDto], readOnly: true }) groups?: ScimRefDto[];
  @ApiPropertyOptional({ name: SCIM.enterprise, type: ScimEnterpriseDto }) enterprise?: ScimEnterpriseDto;
  @ApiPropertyOptional({ type: ScimMetaDto, readOnly: true }) meta?: ScimMetaDto;
}

/** RFC 7643 §4.2: a Group of the domain, with the members SCIM sees. */
export class ScimGroupDto {
  @ApiProperty({ type: [String], example: [SCIM.group] }) schemas!: string[];
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional() displayName?: string;
  @ApiPropertyOptional({ type: [ScimRefDto] }) members?: ScimRefDto[];
  @ApiPropertyOptional({ type: ScimMetaDto, readOnly: true }) meta?: ScimMetaDto;
}

export class ScimPatchOperationDto {
  @ApiProperty({ description: 'add, replace or remove (any case)', example: 'replace' }) op!: string;
  @ApiPropertyOptional({ example: 'active' }) path?: string;
  @ApiPropertyOptional({ description: 'Any JSON value' }) value?: unknown;
}

/** RFC 7644 §3.5.2: a PatchOp message. */
export class ScimPatchDto {
  @ApiPropertyOptional({ type: [String], example: [SCIM.patch] }) schemas?: string[];
  @ApiProperty({ type: [ScimPatchOperationDto] }) Operations!: ScimPatchOperationDto[];
}

class ScimListDto {
  @ApiProperty({ type: [String], example: [SCIM.list] }) schemas!: string[];
  @ApiProperty() totalResults!: number;
  @ApiProperty() startIndex!: number;
  @ApiProperty() itemsPerPage!: number;
}
export class ScimUserListDto extends ScimListDto {
  @ApiProperty({ type: [ScimUserDto] }) Resources!: ScimUserDto[];
}
export class ScimGroupListDto extends ScimListDto {
  @ApiProperty({ type: [ScimGroupDto] }) Resources!: ScimGroupDto[];
}

export class ScimServiceProviderConfigDto {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty() documentationUri!: string;
  @ApiProperty(OPEN) patch!: object;
  @ApiProperty(OPEN) bulk!: object;
  @ApiProperty(OPEN) filter!: object;
  @ApiProperty(OPEN) changePassword!: object;
  @ApiProperty(OPEN) sort!: object;
  @ApiProperty(OPEN) etag!: object;
  @ApiProperty({ type: 'array', items: OPEN }) authenticationSchemes!: object[];
  @ApiProperty({ type: ScimMetaDto }) meta!: ScimMetaDto;
}

export class ScimSchemaExtensionDto {
  @ApiProperty() schema!: string;
  @ApiProperty() required!: boolean;
}

export class ScimResourceTypeDto {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() endpoint!: string;
  @ApiProperty() schema!: string;
  @ApiProperty({ type: [ScimSchemaExtensionDto] }) schemaExtensions!: ScimSchemaExtensionDto[];
  @ApiProperty({ type: ScimMetaDto }) meta!: ScimMetaDto;
}
export class ScimResourceTypeListDto extends ScimListDto {
  @ApiProperty({ type: [ScimResourceTypeDto] }) Resources!: ScimResourceTypeDto[];
}

export class ScimSchemaDto {
  @ApiProperty({ type: [String] }) schemas!: string[];
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'array', items: OPEN }) attributes!: object[];
  @ApiProperty({ type: ScimMetaDto }) meta!: ScimMetaDto;
}
export class ScimSchemaListDto extends ScimListDto {
  @ApiProperty({ type: [ScimSchemaDto] }) Resources!: ScimSchemaDto[];
}
