import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorsDto } from '../errors/errors.dto.js';

/** A status alone, or statuses with the description each one carries in the OpenAPI document. */
export type ErrorSpec = number | Readonly<Record<number, string>>;

/**
 * The error answers of a route (or of every route of a controller) in the `{errors}` form: `ApiErrors(404)`,
 * `ApiErrors(400, { 404: 'No such app', 409: TAKEN })`. One `ApiResponse` with the `ErrorsDto` schema each,
 * exactly what `@ApiNotFoundResponse({ type: ErrorsDto, description })` and its siblings declared.
 */
export function ApiErrors(...specs: ErrorSpec[]): MethodDecorator & ClassDecorator {
  const entries = specs.flatMap((s): { status: number; description?: string }[] =>
    typeof s === 'number'
      ? [{ status: s }]
      : Object.entries(s).map(([status, description]) => ({ status: Number(status), description })),
  );
  return applyDecorators(
    ...entries.map((e) =>
      ApiResponse({
        status: e.status,
        type: ErrorsDto,
        ...(e.description ? { description: e.description } : {}),
      }),
    ),
  );
}
