import type { Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { AuthenticatedOptions } from '../auth/authenticated.decorator.js';
import type { ErrorSpec } from './api-errors.js';
import { Route } from './route.js';

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

/** What TypeScript records of a method's parameters and answer, which Nest's pipes and Swagger read. */
const DESIGN_KEYS = ['design:paramtypes', 'design:returntype', 'design:type'];

/**
 * One update offered as PUT and as PATCH, declared from one spec on one handler: `const edit =
 * PutAndPatch({...})`, then `@edit.both('replaceX')` on `updateX`. The decorated method is the PATCH
 * (`updateX`, its operationId); its PUT twin `replaceX` is the same handler under its own name, since the
 * method name is the OpenAPI operationId and Nest maps one HTTP method per handler: a function of its own
 * that calls the method, with the method's parameters (the route arguments, the types the pipes validate
 * against) recorded for it too. `put` and `patch` alone stay for an update whose two methods differ.
 */
export function PutAndPatch(spec: PutAndPatchSpec): {
  put: MethodDecorator;
  patch: MethodDecorator;
  both: (putName: string) => MethodDecorator;
} {
  const route = (verb: typeof Route.put, summary: string) =>
    verb(spec.path, { summary, policy: spec.policy ?? {}, ok: spec.ok, errors: spec.errors });
  const put = route(Route.put, spec.put);
  const patch = route(Route.patch, spec.patch);
  const both =
    (putName: string): MethodDecorator =>
    (target, key, descriptor) => {
      const handler = descriptor.value as unknown as (...args: unknown[]) => unknown;
      // a function of its own: Nest and Swagger keep a route's metadata on its handler function
      const twin = {
        [putName](this: unknown, ...args: unknown[]) {
          return handler.apply(this, args);
        },
      }[putName];
      Object.defineProperty(target, putName, { value: twin, writable: true, configurable: true });
      // the parameter decorators ran before this one: the twin takes the same parameters
      const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) as unknown;
      Reflect.defineMetadata(ROUTE_ARGS_METADATA, args, target.constructor, putName);
      for (const design of DESIGN_KEYS) {
        const value = Reflect.getMetadata(design, target, key) as unknown;
        if (value !== undefined) Reflect.defineMetadata(design, value, target, putName);
      }
      put(target, putName, Object.getOwnPropertyDescriptor(target, putName)!);
      patch(target, key, descriptor);
    };
  return { put, patch, both };
}
