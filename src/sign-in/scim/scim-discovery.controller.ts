import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ScimError } from '../../base/common/errors/scim-error.js';
import {
  ScimResourceTypeDto,
  ScimResourceTypeListDto,
  ScimSchemaDto,
  ScimSchemaListDto,
  ScimServiceProviderConfigDto,
} from './dto/scim.dto.js';
import { listResponse } from './scim-query.js';
import { SCIM_BASE, ScimRoute } from './scim-routes.js';
import { resourceTypes, schemaDescriptions, serviceProviderConfig } from './scim-schemas.js';

const whole = <T>(all: T[]) => listResponse(all, { startIndex: 1, count: all.length });

/** RFC 7644 §4: what the service supports, its resource types and schemas, for the provider's discovery. */
@Controller('API/scim/v2')
export class ScimDiscoveryController {
  constructor(@Inject(SCIM_BASE) private readonly base: string) {}

  @Get('ServiceProviderConfig')
  @ScimRoute({ status: 200, type: ScimServiceProviderConfigDto })
  @ApiOperation({ summary: 'SCIM: the features this service supports' })
  scimServiceProviderConfig() {
    return serviceProviderConfig(this.base);
  }

  @Get('ResourceTypes')
  @ScimRoute({ status: 200, type: ScimResourceTypeListDto })
  @ApiOperation({ summary: 'SCIM: the resource types (User with the enterprise extension, Group)' })
  scimResourceTypes() {
    return whole(resourceTypes(this.base));
  }

  @Get('ResourceTypes/:name')
  @ScimRoute({ status: 200, type: ScimResourceTypeDto }, 400, 404)
  @ApiOperation({ summary: 'SCIM: one resource type' })
  scimResourceType(@Param('name') name: string) {
    const found = resourceTypes(this.base).find((t) => t.id === name);
    if (!found) throw new ScimError(404, `No resource type ${name}`);
    return found;
  }

  @Get('Schemas')
  @ScimRoute({ status: 200, type: ScimSchemaListDto })
  @ApiOperation({ summary: 'SCIM: the schemas (User, the enterprise extension, Group)' })
  scimSchemas() {
    return whole(schemaDescriptions(this.base));
  }

  @Get('Schemas/:urn')
  @ScimRoute({ status: 200, type: ScimSchemaDto }, 400, 404)
  @ApiOperation({ summary: 'SCIM: one schema, by its URN' })
  scimSchema(@Param('urn') urn: string) {
    const found = schemaDescriptions(this.base).find((s) => s.id === urn);
    if (!found) throw new ScimError(404, `No schema ${urn}`);
    return found;
  }
}
