import { jest } from '@jest/globals';
import type { NextFunction, Request, Response } from 'express';
import { inSequence, type Middleware, underPath } from './in-sequence.js';

const req = (path = '/API/x') => ({ path }) as Request;
const res = {} as Response;

/** Runs `mw` and resolves with what it passed to the router's next (`undefined` for a plain next()). */
const outcome = (mw: Middleware, r = req()) =>
  new Promise<{ err: unknown }>((resolve) => {
    void mw(r, res, ((err?: unknown) => resolve({ err })) as NextFunction);
  });

describe('inSequence', () => {
  it('runs every step in order, then hands on to the router once', async () => {
    const ran: string[] = [];
    const step = (name: string) => (_q: Request, _s: Response, next: NextFunction) => {
      ran.push(name);
      next();
    };
    let outs = 0;
    await new Promise<void>((resolve) =>
      inSequence(step('a'), step('b'), step('c'))(req(), res, () => {
        outs++;
        resolve();
      }),
    );
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(outs).toBe(1);
  });

  it("goes on after next('route'), as the router does for a middleware", async () => {
    const ran: string[] = [];
    const mw = inSequence(
      (_q, _s, next) => next('route'),
      (_q, _s, next) => {
        ran.push('second');
        next();
      },
    );
    expect(await outcome(mw)).toEqual({ err: undefined });
    expect(ran).toEqual(['second']);
  });

  it('ends with the error of a step that calls next(err), throws or rejects; later steps never run', async () => {
    const never = jest.fn();
    const boom = new Error('boom');
    expect((await outcome(inSequence((_q, _s, next) => next(boom), never))).err).toBe(boom);
    expect(
      (
        await outcome(
          inSequence(() => {
            throw boom;
          }, never),
        )
      ).err,
    ).toBe(boom);
    expect((await outcome(inSequence(() => Promise.reject(boom), never))).err).toBe(boom);
    expect(((await outcome(inSequence(() => Promise.reject(undefined), never))).err as Error).message).toBe(
      'Rejected promise',
    );
    expect(never).not.toHaveBeenCalled();
  });

  it('lets a step answer without calling next (the sequence and the router stop there)', async () => {
    const after = jest.fn();
    const out = jest.fn();
    inSequence(() => undefined, after)(req(), res, out);
    await new Promise((r) => setImmediate(r));
    expect(after).not.toHaveBeenCalled();
    expect(out).not.toHaveBeenCalled();
  });
});

describe('underPath', () => {
  const hit = jest.fn((_q: Request, _s: Response, next: NextFunction) => next('hit'));
  const run = async (path: string) => (await outcome(underPath('/API/files/v1/upload', hit), req(path))).err;

  it('runs the step for the prefix and below it, in any ASCII case, as app.use(prefix) mounts it', async () => {
    for (const path of ['/API/files/v1/upload', '/API/files/v1/upload/', '/api/FILES/v1/upload/abc/def']) {
      expect(await run(path)).toBe('hit');
    }
  });

  it('passes every other path straight on (a longer segment, a shorter path, another place)', async () => {
    for (const path of [
      '/API/files/v1/uploads',
      '/API/files/v1/uploa',
      '/API/files/v1/',
      '/',
      '/X/API/files/v1/upload',
    ]) {
      expect(await run(path)).toBeUndefined();
    }
  });
});
