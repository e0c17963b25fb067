// Process step, before the app serves anyone: on an empty database, create one admin. Its password comes from
// ADMIN_PASSWORD or is generated and printed once; there is no fixed default password anywhere.
import type { Config } from '../config';
import type { Db } from '../db/client';
import { countUsers, lockFirstAdminCheck } from '../db/repositories/users';
import { createAccount } from '../http/users/create-account';
import { generatePassword } from '../security/passwords';

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

export async function bootstrapAdmin(
  db: Db,
  config: Pick<Config, 'adminEmail' | 'adminPassword'>,
): Promise<BootstrapResult> {
  return db.transaction(async (tx) => {
    // Two instances starting at once on one PostgreSQL must not both create an admin.
    await lockFirstAdminCheck(tx);
    if ((await countUsers(tx)) > 0) return { created: false };
    const password = config.adminPassword ?? generatePassword();
    const user = await createAccount(tx, {
      username: usernameFromEmail(config.adminEmail),
      email: config.adminEmail,
      password,
      role: 'admin',
    });
    return {
      created: true,
      username: user.username,
      email: user.email,
      ...(config.adminPassword === undefined && { generatedPassword: password }),
    };
  });
}

/** The framed block the process prints once when it generated the password. */
export function generatedPasswordNotice(result: BootstrapResult): string {
  const lines = [
    'First start: an admin account was created.',
    `  e-mail:   ${result.email}`,
    `  username: ${result.username}`,
    `  password: ${result.generatedPassword}`,
    'This password is shown only during this first start. Sign in and change it (Profile → Change Password).',
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const bar = '='.repeat(width + 2);
  return [bar, ...lines.map((l) => `| ${l.padEnd(width - 1)}|`), bar].join('\n');
}
