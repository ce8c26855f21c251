import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/**
 * The common list envelope for the OpenAPI document, one class per item type:
 * `export class AppListDto extends ListEnvelopeDto(AppDto) {}`.
 */
export function ListEnvelopeDto<T>(item: Type<T>) {
  class ListEnvelope {
    @ApiProperty({ type: [item] }) objects!: T[];
    @ApiProperty({ type: 'integer', format: 'int32' }) page!: number;
    @ApiProperty({ type: 'integer', format: 'int32' }) pages!: number;
    @ApiProperty({ type: 'integer', format: 'int32' }) per_page!: number;
    @ApiProperty({ type: 'integer', format: 'int64' }) total!: number;
    @ApiProperty({ nullable: true, type: String, description: 'Path starting with /API/' }) first_url!:
      string | null;
    @ApiProperty({ nullable: true, type: String }) last_url!: string | null;
    @ApiProperty({ nullable: true, type: String }) next_url!: string | null;
    @ApiProperty({ nullable: true, type: String }) prev_url!: string | null;
  }
  Object.defineProperty(ListEnvelope, 'name', { value: `${item.name}ListEnvelope` });
  return ListEnvelope;
}
