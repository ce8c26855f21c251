import { ApiProperty } from '@nestjs/swagger';

export class JwkDto {
  @ApiProperty({ example: 'EC' }) kty!: string;
  @ApiProperty({ example: 'P-256' }) crv!: string;
  @ApiProperty() x!: string;
  @ApiProperty() y!: string;
  @ApiProperty({ description: 'Key id, as in the JWT header' }) kid!: string;
  @ApiProperty({ example: 'ES256' }) alg!: string;
  @ApiProperty({ example: 'sig' }) use!: string;
}

export class JwksDto {
  @ApiProperty({ type: [JwkDto] }) keys!: JwkDto[];
}
