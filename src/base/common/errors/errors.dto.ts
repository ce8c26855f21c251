import { ApiProperty } from '@nestjs/swagger';

/** The generic error body: a list of messages, or a field → message map for validation failures. */
export class ErrorsDto {
  @ApiProperty({
    oneOf: [
      { type: 'array', items: { type: 'string' } },
      { type: 'object', additionalProperties: { type: 'string' } },
    ],
    example: ['Authentication credentials were not provided or are invalid'],
  })
  errors!: string[] | Record<string, string>;
}
