import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane); @node-rs/argon2's defaults.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Hashings and verifications running at once, at most: one per core. argon2id is pure CPU and 19 MiB of
 * memory per run, on libuv's thread pool (4 threads by default, shared with file system and DNS work). More
 * runs than cores finish no sooner, hold 19 MiB each and take the pool's threads from other work; past the
 * bound they wait here, in order, on the event loop (no thread, no memory).
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, availableParallelism());

let running = 0;
const waiting: (() => void)[] = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running < PASSWORD_HASH_CONCURRENCY) running++;
  // the slot is handed over by the run that frees it (`running` unchanged)
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return bounded(() => hash(password, OPTIONS));
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await bounded(() => verify(stored, password));
  } catch {
    return false;
  }
}

/** Runs now and waiting for a slot (tests). */
export function passwordHashLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

let dummy: Promise<string> | null = null;
/** A real hash to verify against when the email is unknown, so both answers take the same time. */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword('portcullis-timing-equaliser');
  return dummy;
}
