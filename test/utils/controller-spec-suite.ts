/**
 * What the *.controller.spec.ts files of src/ share around controllerSpec (controller-spec.ts):
 * the app's lifetime in a describe, the fake of a CRUD service, and the checks they all make: the ids an
 * entity's ACL hides answer 404, a body the pipes refuse answers 400 naming its fields.
 */
import { jest } from '@jest/globals';
import type Test from 'supertest/lib/test.js';
import {
  controllerSpec,
  type ControllerSpec,
  type ControllerSpecOptions,
  type DEFAULT_CALLERS,
  UNKNOWN_ID,
} from './controller-spec.js';

/**
 * controllerSpec(o) for the tests of the describe that calls this (call it in the describe's body, never at
 * a file's top level): the app is built in the describe's beforeAll and closed in its afterAll, and every
 * mock's calls are cleared before each test. What it returns reads that app, so use it in tests and hooks
 * only: before the app is built it throws.
 */
export function useControllerSpec<C extends string = never>(o: ControllerSpecOptions<C>): ControllerSpec<C> {
  let spec: ControllerSpec<C> | undefined;
  beforeAll(async () => {
    spec = await controllerSpec(o);
  });
  afterAll(() => spec?.close());
  beforeEach(() => jest.clearAllMocks());
  const built = () => {
    if (!spec) throw new Error('the controller spec’s app is built in beforeAll: use it in tests and hooks');
    return spec;
  };
  return {
    get app() {
      return built().app;
    },
    get http() {
      return built().http;
    },
    as: (name) => built().as(name),
    get callers() {
      return built().callers;
    },
    close: () => built().close(),
  };
}

/**
 * The fake of a feature's CRUD service: `list` answers an empty page, `create`, `get` and `update` the
 * entity `{ id }` (a new object on every call, as the other fakes answer), `remove` nothing; `more` adds the
 * service's other methods.
 */
export function crudServiceFake<M extends object = object>(id: string, more?: M) {
  return {
    list: jest.fn(async () => ({ objects: [] })),
    create: jest.fn(async () => ({ id })),
    get: jest.fn(async () => ({ id })),
    update: jest.fn(async () => ({ id })),
    remove: jest.fn(async () => undefined),
    ...(more as M),
  };
}

/** A caller's name: one of DEFAULT_CALLERS, or one the spec adds. */
type Caller<C extends string> = C | keyof typeof DEFAULT_CALLERS;

/**
 * The callers and ids for which the ACL must not find `id`, an entity of the caller's domain: another
 * domain's administrator asking for it, and an administrator asking for an id no entity has, and for one
 * that is not an id at all.
 */
export const hiddenFromCallers = (id: string) =>
  [
    ['otherAdmin', id],
    ['admin', UNKNOWN_ID],
    ['admin', 'nonsense'],
  ] as const;

/**
 * That for each (caller, id) of `cases` every request `calls(id)` makes, sent as that caller, answers 404
 * with `{ errors: [message] }`.
 */
export async function expectNotFound<C extends string>(
  s: ControllerSpec<C>,
  cases: readonly (readonly [Caller<C>, string])[],
  message: string,
  calls: (id: string) => Test[],
): Promise<void> {
  for (const [who, id] of cases) {
    for (const call of calls(id)) {
      const res = await call.set(s.as(who)).expect(404);
      expect(res.body).toEqual({ errors: [message] });
    }
  }
}

/**
 * That `call` answers 400 with errors naming exactly `fields` (the validation pipe's answer: one error per
 * field): 'in order' checks their order too, 'in any order' only which they are.
 */
export async function expectFieldErrors(
  call: Test,
  fields: readonly string[],
  order: 'in order' | 'in any order',
): Promise<void> {
  const named = Object.keys((await call.expect(400)).body.errors as object);
  if (order === 'in order') expect(named).toEqual(fields);
  else expect(named.sort()).toEqual([...fields].sort());
}
