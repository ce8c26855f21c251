// The password sign-in section of the benchmark (phase `login`; issue 23 item 3): password sign-ins per
// second against raw argon2id verifications per second with the service's own parameters
// (src/base/common/crypto/passwords.ts) and the same library, run in the benchmark's process while the service's
// is idle (each has the machine to itself in turn), at the same concurrency, in alternating rounds; `login_vs_argon2` is the median of the rounds' ratios. The sign-ins cycle through
// BENCH_LOGIN_USERS (default 100) seeded accounts, each with the right password, so at 20 connections no
// account has two attempts in flight: the guessing defence runs as in production (its reservation and
// release are part of every sign-in's cost) and never locks anyone; the rate-limit budgets of the bench's
// service are set out of reach (bench/bench.ts), so every request is charged in Redis but none refused.
import { DataSource } from 'typeorm';
import type { INestApplication } from '@nestjs/common';
import { hashPassword, verifyPassword } from '../src/base/common/crypto/passwords.js';
import { CONNECTIONS, DURATION, median, positiveInt, WARMUP, type LoadConfig } from './measure.js';

type Result = { rps: number; ok: boolean; p99: number };

export interface LoginBenchContext {
  app: INestApplication;
  base: string;
  domainId: string;
  rounds: number;
  measure: (name: string, load: (seconds: number) => LoadConfig) => Promise<Result>;
}

const USERS = positiveInt('BENCH_LOGIN_USERS', 100);
const PASSWORD = 'login-bench-password-1';

/** Verifications per second by CONNECTIONS concurrent loops for `seconds`, and CPU per verification. */
async function argon2Rate(hash: string, seconds: number): Promise<{ rate: number; cpuUs: number }> {
  const end = Date.now() + seconds * 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        if (!(await verifyPassword(hash, PASSWORD))) throw new Error('argon2 bench: verification failed');
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { rate: done / elapsed, cpuUs: (cpu.user + cpu.system) / done };
}

export async function loginPhase(ctx: LoginBenchContext): Promise<Result[]> {
  const ds = ctx.app.get(DataSource);
  const hash = await hashPassword(PASSWORD);
  await ds.query(
    `INSERT INTO users (email, first_name, last_name, password_hash, status, system_domain_id)
     SELECT 'login-' || i || '@bench.test', 'Login', 'User ' || i, $2, 'ACTIVE', $1::uuid
     FROM generate_series(1, $3::int) AS i`,
    [ctx.domainId, hash, USERS],
  );
  await ds.query(
    `INSERT INTO user_system_domains (user_id, system_domain_id)
     SELECT id, $1::uuid FROM users WHERE email LIKE 'login-%@bench.test'`,
    [ctx.domainId],
  );
  const bodies = Array.from({ length: USERS }, (_, i) =>
    JSON.stringify({ email: `login-${i + 1}@bench.test`, password: PASSWORD }),
  );
  const results: Result[] = [];
  const logins: number[] = [];
  const raws: number[] = [];
  for (let round = 1; round <= ctx.rounds; round++) {
    const suffix = ctx.rounds > 1 ? `_round${round}` : '';
    const login = await ctx.measure(`login${suffix}`, (seconds) => ({
      url: `${ctx.base}/API/auth/v1/auth/simple/login/`,
      seconds,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      bodies,
    }));
    await argon2Rate(hash, WARMUP);
    const raw = await argon2Rate(hash, DURATION);
    console.log(`argon2_verify${suffix}_per_s=${raw.rate.toFixed(1)}`);
    console.log(`argon2_verify${suffix}_cpu_us=${raw.cpuUs.toFixed(0)}`);
    results.push(login);
    logins.push(login.rps);
    raws.push(raw.rate);
  }
  console.log(`login_vs_argon2=${median(logins.map((l, i) => l / raws[i])).toFixed(3)}`);
  return results;
}
