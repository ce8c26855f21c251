/** Small typed builders for the fakes unit specs share: repositories, events, audit, clock, callers, errors. */
import { jest } from '@jest/globals';
import type { AuthContext } from '../../src/base/common/auth/auth-context.js';
import type { Role } from '../../src/base/common/auth/roles.js';
import type { Clock } from '../../src/base/common/clock.js';
import type { ApiError } from '../../src/base/common/errors/api-error.js';

/** The work a repository's transaction runs, handed the transaction's entity manager. */
export type Work = (em: any) => Promise<unknown>;

/** A transaction fake that runs work(em) and records 'begin' and 'commit' around it into order. */
export const recordingTransaction = (order: string[], em: unknown) =>
  jest.fn(async (work: Work) => {
    order.push('begin');
    const out = await work(em);
    order.push('commit');
    return out;
  });

/** A transaction fake that only runs work(em). */
export const passThroughTransaction = (em: unknown) => jest.fn(async (work: Work) => work(em));

/** A repository fake: the given methods (and manager, if given) plus a transaction recording begin/commit into order. */
export const transactionalRepo = <M extends object>(order: string[], em: unknown, methods: M) => ({
  ...methods,
  transaction: recordingTransaction(order, em),
});

/** A repository fake: the given methods (and manager, if given) plus a transaction that only runs work(em). */
export const repoWithTransaction = <M extends object>(em: unknown, methods: M) => ({
  ...methods,
  transaction: passThroughTransaction(em),
});

/** A WebhookEventsService fake whose record pushes 'event' into order, if one is given. */
export const recordingEvents = (order?: string[]) => ({
  record: jest.fn(async () => void order?.push('event')),
});

/** An AuditService fake whose change pushes 'audit' into order, if one is given. */
export const recordingAudit = (order?: string[]) => ({
  change: jest.fn(async () => void order?.push('audit')),
});

/** A Clock whose now() is always the given instant. */
export const fixedClock = (now: Date) => ({ now: () => now }) as Clock;

/** The fields of an AuthContext a spec sets: nested records partly, roles as any list of role names. */
export type CallerFields = {
  [K in keyof AuthContext]?: K extends 'roles' ? Iterable<string> : Partial<AuthContext[K]> | AuthContext[K];
};

/** An AuthContext of user u1 in domain d1 on request r1 with the given fields over it (roles made a Set). */
export const authContext = ({ roles, ...over }: CallerFields = {}) =>
  ({
    userId: 'u1',
    systemDomainId: 'd1',
    requestId: 'r1',
    ...over,
    ...(roles === undefined
      ? {}
      : { roles: roles instanceof Set ? roles : new Set(roles as Iterable<Role>) }),
  }) as unknown as AuthContext;

/** An administrator of domain d1, no super administrator: authContext with the given fields over it. */
export const adminContext = (over: CallerFields = {}) =>
  authContext({ isAdmin: true, isSuperAdmin: false, ...over });

/** A user of domain d1 who administers nothing: authContext with the given fields over it. */
export const memberContext = (over: CallerFields = {}) =>
  authContext({ isAdmin: false, isSuperAdmin: false, ...over });

/** What a client gets from an ApiError: status, code and body (toEqual on errors compares only the message). */
export const wire = (e: unknown) => {
  const { status, code, errors } = e as ApiError;
  return { status, code, errors };
};

/** What `fn` throws: a test that expects a refusal fails when `fn` returns instead. */
export const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('not refused');
};

/** A valid one-pixel PNG, for image uploads that should be accepted. */
export const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** An SVG carrying a script, for image uploads that must be refused. */
export const SCRIPT_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

/** A multipart file as the upload interceptor hands it over: field name, bytes and size. */
export const uploadedFile = (buffer: Buffer, fieldname: string) => ({
  fieldname,
  buffer,
  size: buffer.length,
});

/** The error the database driver throws on a unique-constraint violation (Postgres code 23505). */
export const uniqueViolation = () => Object.assign(new Error('duplicate key'), { code: '23505' });

/** A mock that resolves to `value`, whatever it is called with. */
export const resolves = <T>(value: T) => jest.fn(async (..._a: unknown[]) => value);
