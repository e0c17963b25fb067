// First start on an empty database: create one admin. Its password comes from ADMIN_PASSWORD or is generated and
// printed once; there is no fixed default password anywhere.
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { countUsers, insertUser } from '../../db/repositories/users';
import { generatePassword, hashPassword } from '../../security/passwords';
import { sql } from 'drizzle-orm';

export interface BootstrapResult {
  created: boolean;
  username?: string;
  email?: string;
  /** Set only when the password was generated here and must be shown to the operator. */
  generatedPassword?: string;
}

/** 'admin@arbitrage.local' → 'admin'; pads names too short for the username rules. */
export function usernameFromEmail(email: string): string {
  const local = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 50);
  return local.length >= 3 ? local : `${local || 'admin'}-admin`.slice(0, 50);
}

const BOOTSTRAP_LOCK_KEY = 7_202_612;

export async function bootstrapAdmin(db: Db, config: Pick<Config, 'adminEmail' | 'adminPassword'>): Promise<BootstrapResult> {
  return db.transaction(async (tx) => {
    // Two instances starting at once on one PostgreSQL must not both create an admin.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`);
    if ((await countUsers(tx)) > 0) return { created: false };
    const password = config.adminPassword ?? generatePassword();
    const user = await insertUser(tx, {
      username: usernameFromEmail(config.adminEmail),
      email: config.adminEmail,
      role: 'admin',
      passwordHash: await hashPassword(password),
    });
    return {
      created: true,
      username: user.username,
      email: user.email,
      ...(config.adminPassword === undefined && { generatedPassword: password }),
    };
  });
}

/** The framed block main.ts prints once when it generated the password. */
export function generatedPasswordNotice(result: BootstrapResult): string {
  const lines = [
    'First start: an admin account was created.',
    `  e-mail:   ${result.email}`,
    `  username: ${result.username}`,
    `  password: ${result.generatedPassword}`,
    'This password is shown only now. Sign in and change it (Profile → Change Password).',
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const bar = '='.repeat(width + 2);
  return [bar, ...lines.map((l) => `| ${l.padEnd(width - 1)}|`), bar].join('\n');
}
