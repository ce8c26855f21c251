import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALONE, BATCH_COUNT, planBatches } from './batches.js';
import { planUnitBatches, UNIT_BATCH_COUNT, unbatchedUnitSpecs, unitSpecs } from './unit-batches.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const suites = readdirSync(join(ROOT, 'test/e2e')).filter((f) => f.endsWith('.e2e-spec.ts'));

describe('the e2e batches (test/utils/batches.ts)', () => {
  it('run every suite exactly once: in one batch, or alone', () => {
    const plan = planBatches();
    const batched = plan.flat();
    expect(new Set(batched).size).toBe(batched.length);
    expect([...batched, ...ALONE].sort()).toEqual([...suites].sort());
    for (const batch of plan) expect(batch.length).toBeGreaterThan(0);
  });

  it('the PostgreSQL pass names existing suites, each with its reason (test/postgres-suites.json)', () => {
    const listed = JSON.parse(readFileSync(join(ROOT, 'test/postgres-suites.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(Object.keys(listed).filter((f) => !suites.includes(f))).toEqual([]);
    for (const reason of Object.values(listed)) expect(reason.length).toBeGreaterThan(10);
    // every suite that skips itself without PostgreSQL or Redis runs there
    const needing = suites.filter((f) => {
      const text = readFileSync(join(ROOT, 'test/e2e', f), 'utf8');
      return /process\.env\.(DATABASE_URL|REDIS_URL)/.test(text) && /\b(describe|it)\.skip\b/.test(text);
    });
    expect(needing.length).toBeGreaterThanOrEqual(9);
    expect(needing.filter((f) => !(f in listed))).toEqual([]);
  });

  it('have one file per batch in test/batches/', () => {
    const files = readdirSync(join(ROOT, 'test/batches')).filter((f) => f.endsWith('.e2e-batch.ts'));
    expect(files.sort()).toEqual(
      Array.from({ length: BATCH_COUNT }, (_, i) => `${i + 1}.e2e-batch.ts`).sort(),
    );
  });

  it('hold only suites whose hooks and timeouts stay inside their describe blocks', () => {
    // a hook or jest.setTimeout at a file's top level would apply to every suite of its batch
    const offending = suites
      .filter((f) => !ALONE.includes(f))
      .filter((f) =>
        /^(beforeAll|afterAll|beforeEach|afterEach|jest\.setTimeout|jest\.retryTimes)\(/m.test(
          readFileSync(join(ROOT, 'test/e2e', f), 'utf8'),
        ),
      );
    expect(offending).toEqual([]);
  });

  it('balance the suites by weight, heaviest first, deterministically', () => {
    const plan = planBatches(['a', 'b', 'c', 'd', 'e'], { a: 10, b: 6, c: 5, d: 1 }, 2);
    // e is not weighed: it counts as the median of [1, 5, 6, 10], 6. Heaviest first, ties by name:
    // a(10) → 1; b(6) → 2; e(6) → 2 (6 < 10); c(5) → 1 (10 < 12); d(1) → 2 (12 < 15)
    expect(plan).toEqual([
      ['a', 'c'],
      ['b', 'd', 'e'],
    ]);
    expect(planBatches(['a', 'b', 'c', 'd', 'e'], { a: 10, b: 6, c: 5, d: 1 }, 2)).toEqual(plan);
  });
});

describe('the unit batches (test/utils/unit-batches.mjs)', () => {
  it('run every unit spec exactly once: in one batch, or in its own file', () => {
    const batched = planUnitBatches().flat();
    const alone = unbatchedUnitSpecs();
    expect([...batched, ...alone].sort()).toEqual(unitSpecs());
    expect(new Set(batched).size).toBe(batched.length);
    expect(batched.filter((s) => alone.includes(s))).toEqual([]);
  });

  it('have one file per batch in test/batches/', () => {
    const files = readdirSync(join(ROOT, 'test/batches')).filter((f) => f.endsWith('.unit-batch.ts'));
    expect(files.sort()).toEqual(
      Array.from({ length: UNIT_BATCH_COUNT }, (_, i) => `${i + 1}.unit-batch.ts`),
    );
  });

  it('keep out of the batches a spec that mocks a module, spies, touches the environment or fakes timers', () => {
    const batched = planUnitBatches().flat();
    const leaking = batched.filter((s) =>
      /jest\.unstable_mockModule|jest\.mock\(|useFakeTimers|spyOn\(|process\.env/.test(
        readFileSync(join(ROOT, s), 'utf8'),
      ),
    );
    expect(leaking).toEqual([]);
    expect(unbatchedUnitSpecs()).toContain('src/sign-in/identity-providers/saml.service.spec.ts');
  });
});
