// Password hashing with argon2id (OWASP's first choice), through the native @node-rs/argon2 binding.
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// The binding's default algorithm is argon2id (its const enum cannot be imported under verbatimModuleSyntax).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check, so an unknown account cannot be told from a wrong password by timing. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}

/** A strong random password for the first admin when none is configured: 24 characters, about 143 bits. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
