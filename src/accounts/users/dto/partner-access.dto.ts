import { ApiProperty } from '@nestjs/swagger';
import { UuidField } from '../../../base/common/validation/fields.js';

/** Body of POST and DELETE /v1/users/partner_domain_access/. */
export class PartnerAccessDto {
  @UuidField({ description: 'The caller’s domain (super administrators: any)' }) customer_domain_id!: string;
  @UuidField({ description: 'A live domain of type PARTNER' }) partner_domain_id!: string;
}

export class PartnerAccessGrantedDto {
  @ApiProperty({ format: 'uuid' }) customer_domain_id!: string;
  @ApiProperty({ format: 'uuid' }) partner_domain_id!: string;
  @ApiProperty({ description: 'Partner administrators who became administrators of the customer domain now' })
  users_added!: number;
}
