import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenID Connect Core §5.3.2: `sub` always, the others only with the scope that names them. */
export class UserinfoDto {
  @ApiProperty({ format: 'uuid', description: 'The user’s id: stable, never reassigned' }) sub!: string;
  @ApiPropertyOptional({ description: 'Scope email' }) email?: string;
  @ApiPropertyOptional({ description: 'Scope email: the person used a mailed link or code at this address' })
  email_verified?: boolean;
  @ApiPropertyOptional({ description: 'Scope profile (only when the account has a name)' }) name?: string;
  @ApiPropertyOptional({ description: 'Scope profile' }) given_name?: string;
  @ApiPropertyOptional({ description: 'Scope profile' }) family_name?: string;
}
