import { applyDecorators, Patch, Put, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Authenticated, type AuthenticatedOptions } from '../auth/authenticated.decorator.js';
import { ApiErrors, type ErrorSpec } from './api-errors.js';

/** One update offered as PUT and as PATCH: the path, policy, answer and errors they share, and each summary. */
export interface PutAndPatchSpec {
  path: string;
  policy?: AuthenticatedOptions;
  /** The answer (200). */
  ok: Type<unknown>;
  errors?: ErrorSpec[];
  /** The summaries of the two operations. */
  put: string;
  patch: string;
}

/**
 * The PUT and PATCH twins of one update, declared from one spec: `const edit = PutAndPatch({...})`, then
 * `@edit.put` on `replaceX` and `@edit.patch` on `updateX`, each calling the same service method. Two methods
 * because the method name is the OpenAPI operationId and Nest maps one HTTP method per handler.
 */
export function PutAndPatch(spec: PutAndPatchSpec): { put: MethodDecorator; patch: MethodDecorator } {
  // applied in the order a stack of decorators is (bottom up), so the answers merge as they always did
  const route = (method: MethodDecorator, summary: string) =>
    applyDecorators(
      ApiErrors(...(spec.errors ?? [])),
      ApiOkResponse({ type: spec.ok }),
      ApiOperation({ summary }),
      Authenticated(spec.policy),
      method,
    );
  return { put: route(Put(spec.path), spec.put), patch: route(Patch(spec.path), spec.patch) };
}
