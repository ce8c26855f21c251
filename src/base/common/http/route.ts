import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put, type Type } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  type ApiResponseNoStatusOptions,
} from '@nestjs/swagger';
import {
  Authenticated,
  type AuthenticatedOptions,
  Public,
  type PublicBudget,
} from '../auth/authenticated.decorator.js';
import { ApiErrors, type ErrorSpec } from './api-errors.js';

/** A success answer: its body's type (`Dto`, `[Dto]`), or the whole OpenAPI answer (a description, no body). */
export type RouteAnswer = Type<unknown> | [Type<unknown>] | ApiResponseNoStatusOptions;

/**
 * What one operation declares: who may call it, what it does, what it answers. Exactly one of `policy` and
 * `public`; at most one success answer, whose status is the one the route answers with (`noContent` is the
 * 204's description), so the document and the handler cannot disagree.
 */
export interface RouteSpec {
  summary: string;
  description?: string;
  /** `@Authenticated(policy)`: the guard's roles, scopes, ACL and credential kinds ({} for any caller). */
  policy?: AuthenticatedOptions;
  /** `@Public(budget)`: anyone may call, rate limited per address from this budget. */
  public?: PublicBudget;
  ok?: RouteAnswer;
  created?: RouteAnswer;
  accepted?: RouteAnswer;
  noContent?: string;
  errors?: ErrorSpec[];
}

type Verb = (path?: string | string[]) => MethodDecorator;

function answer(
  declare: (o: ApiResponseNoStatusOptions) => MethodDecorator,
  a: RouteAnswer,
): MethodDecorator {
  const body = typeof a === 'function' || Array.isArray(a);
  return declare(body ? { type: a as Type<unknown> | [Type<unknown>] } : a);
}

function route(verb: Verb, path: string | undefined, spec: RouteSpec): MethodDecorator {
  if ((spec.policy === undefined) === (spec.public === undefined))
    throw new Error(`Route ${spec.summary}: give exactly one of policy and public`);
  const answers: [number, MethodDecorator][] = [];
  if (spec.ok) answers.push([200, answer(ApiOkResponse, spec.ok)]);
  if (spec.created) answers.push([201, answer(ApiCreatedResponse, spec.created)]);
  if (spec.accepted) answers.push([202, answer(ApiAcceptedResponse, spec.accepted)]);
  if (spec.noContent !== undefined)
    answers.push([204, ApiNoContentResponse({ description: spec.noContent })]);
  if (answers.length > 1) throw new Error(`Route ${spec.summary}: give at most one success answer`);
  // listed in the order a stack of decorators is applied (bottom up), so the answers merge as a stack's did
  return applyDecorators(
    ...(spec.errors ? [ApiErrors(...spec.errors)] : []),
    ...answers.map(([, declared]) => declared),
    ApiOperation({ summary: spec.summary, ...(spec.description ? { description: spec.description } : {}) }),
    spec.policy ? Authenticated(spec.policy) : Public(spec.public),
    ...answers.map(([status]) => HttpCode(status)),
    path === undefined ? verb() : verb(path),
  );
}

function verbOf(verb: Verb) {
  function declare(spec: RouteSpec): MethodDecorator;
  function declare(path: string, spec: RouteSpec): MethodDecorator;
  function declare(a: string | RouteSpec, b?: RouteSpec): MethodDecorator {
    return typeof a === 'string' ? route(verb, a, b as RouteSpec) : route(verb, undefined, a);
  }
  return declare;
}

/**
 * One operation declared in one decorator: `@Route.get(':app_id', { summary, policy, ok: AppDto, errors: [404]
 * })` stands for the stack `@Get(':app_id') @Authenticated(policy) @ApiOperation({ summary }) @ApiOkResponse({
 * type: AppDto }) @ApiErrors(404)`, which every controller wrote out. Decorators a route needs beyond these
 * (`@Header`, `@ApiBody`, interceptors) stay beside it.
 */
export const Route = {
  get: verbOf(Get),
  post: verbOf(Post),
  put: verbOf(Put),
  patch: verbOf(Patch),
  delete: verbOf(Delete),
};
