import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane); @node-rs/argon2's defaults.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
/** A real hash to verify against when the email is unknown, so both answers take the same time. */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword('portcullis-timing-equaliser');
  return dummy;
}
