import { Body, Param, Query, Req, type PipeTransform, type Type } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthContext } from '../auth/auth-context.js';
import { Caller } from '../auth/caller.decorator.js';
import { UuidParamPipe } from './uuid-param.pipe.js';

/**
 * One argument a route hands its service: which request part it reads (the parameter decorator Nest and
 * Swagger see, the type the validation pipe and the document read), where the service wants less than that
 * part, what of it, and its place among the handler's parameters (`rank`: path parameters, then the query and
 * the body in the order the entry lists them, then the caller and the request, as the written handlers had them;
 * the pipes start in that order, so a request with two faults is refused for the same one).
 */
export interface RouteInput<T> {
  readonly decorate: ParameterDecorator;
  readonly type: Type<unknown> | typeof Object;
  readonly rank: number;
  readonly pick?: (value: never) => T;
}

/** The caller the guard authenticated (`@Caller()`). */
const caller: RouteInput<AuthContext> = { decorate: Caller(), type: Object, rank: 3 };
/** The request's path, which page lists link their next page with. */
const path: RouteInput<string> = {
  decorate: Req(),
  type: Object,
  rank: 4,
  pick: (req: Request) => req.path,
};
/** The request's id (`X-Request-Id`, or the one the logger gave it), which audit records carry; null without. */
const requestId: RouteInput<string | null> = {
  decorate: Req(),
  type: Object,
  rank: 4,
  pick: (req: Request) => req.id ?? null,
};
/** The body, validated against `dto` by the global pipe. */
const body = <T>(dto: Type<T>): RouteInput<T> => ({ decorate: Body(), type: dto, rank: 1 });
/** The query string, validated against `dto` by the global pipe. */
const query = <T>(dto: Type<T>): RouteInput<T> => ({ decorate: Query(), type: dto, rank: 1 });
/** A path parameter that names an entity by its UUID (a malformed one is that entity's 404). */
const uuidParam = (name: string, label?: string): RouteInput<string> => param(name, new UuidParamPipe(label));
/** A path parameter, through `pipe` when given. */
const param = (name: string, pipe?: PipeTransform): RouteInput<string> => ({
  decorate: pipe ? Param(name, pipe) : Param(name),
  type: String,
  rank: 0,
});

/**
 * What a table entry can hand its service, as `input.caller`, `input.body(Dto)` and so on: one import for every
 * controller, and no bare `body`, `path` or `query` beside the handlers' own variables of those names.
 */
export const input = { caller, path, requestId, body, query, uuidParam, param };

type ValuesOf<I extends readonly RouteInput<unknown>[]> = {
  [K in keyof I]: I[K] extends RouteInput<infer T> ? T : never;
};
/** The names of `S`'s methods that take exactly these arguments. */
type MethodTaking<S, A extends unknown[]> = {
  [K in keyof S]: S[K] extends (...args: A) => unknown ? K : never;
}[keyof S] &
  string;

type Mixable = abstract new (...args: any[]) => object;

/** A handler: the route's decorators, what of the request it takes, and what it does with the service. */
export interface ServiceRoute {
  readonly route: MethodDecorator;
  readonly inputs: readonly RouteInput<unknown>[];
  readonly run: (service: never, values: unknown[]) => unknown;
}

/**
 * A controller's routes that hand the request to its service, as a table instead of a handler each:
 *
 * ```ts
 * const groups = ServiceRoutes<GroupsService>('groups');
 * export class GroupsController extends groups.handlers({
 *   getGroup: groups.call('get', Route.get(':group_id', {...}), input.caller, input.uuidParam('group_id')),
 * }) {
 *   constructor(protected readonly groups: GroupsService) { super(); }
 * }
 * ```
 *
 * Each entry becomes a method of that name (its operationId and its route-policy key) on a class between the
 * controller and `base`, in the table's order; Nest registers the controller's own routes first, then these,
 * then `base`'s. A `call` entry calls `this[service][method]` with the inputs' values in order (which methods
 * fit is checked against the inputs' types); a `handle` entry, for a route that hands the service something
 * of its own (a fixed kind, a field of the body, the caller's id), runs its function with the service and
 * the inputs' values, typed from the inputs. The parameter decorators and the parameter types TypeScript would
 * have recorded are set as on a written handler, so the pipes, the guard and Swagger see the same route.
 */
export function ServiceRoutes<S>(service: string) {
  return {
    call<const I extends readonly RouteInput<unknown>[]>(
      method: MethodTaking<S, [...ValuesOf<I>]>,
      route: MethodDecorator,
      ...inputs: I
    ): ServiceRoute {
      const run = (s: Record<string, (...a: unknown[]) => unknown>, values: unknown[]) =>
        s[method](...values);
      return { route, inputs, run };
    },
    handle<const I extends readonly RouteInput<unknown>[]>(
      route: MethodDecorator,
      fn: (service: S, ...values: ValuesOf<I>) => unknown,
      ...inputs: I
    ): ServiceRoute {
      const run = (s: S, values: unknown[]) => fn(s, ...(values as ValuesOf<I>));
      return { route, inputs, run };
    },
    handlers<B extends Mixable = typeof Object>(table: Record<string, ServiceRoute>, base?: B): B {
      return handlersOn(service, table, base ?? (Object as unknown as B));
    },
  };
}

function handlersOn<B extends Mixable>(service: string, table: Record<string, ServiceRoute>, base: B): B {
  abstract class Handlers extends base {}
  const proto = Handlers.prototype as unknown as Record<string, unknown>;
  for (const [name, { route, inputs, run }] of Object.entries(table)) {
    // the handler's parameters in rank order; the service's arguments in the table's
    const params = inputs.map((input, at) => ({ input, at })).sort((a, b) => a.input.rank - b.input.rank);
    const handler = {
      [name](this: Record<string, never>, ...args: unknown[]) {
        const values: unknown[] = [];
        params.forEach(
          ({ input, at }, i) => (values[at] = input.pick ? input.pick(args[i] as never) : args[i]),
        );
        return run(this[service], values);
      },
    }[name];
    Object.defineProperty(proto, name, { value: handler, writable: true, configurable: true });
    // last parameter first, as TypeScript applies a written handler's parameter decorators (the document lists
    // parameters in the order they were recorded)
    for (let i = params.length - 1; i >= 0; i--) params[i].input.decorate(proto, name, i);
    Reflect.defineMetadata(
      'design:paramtypes',
      params.map(({ input }) => input.type),
      proto,
      name,
    );
    Reflect.defineMetadata('design:type', Function, proto, name);
    Reflect.defineMetadata('design:returntype', Promise, proto, name);
    const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
    const decorated = route(proto, name, descriptor);
    if (decorated) Object.defineProperty(proto, name, decorated);
  }
  return Handlers;
}
