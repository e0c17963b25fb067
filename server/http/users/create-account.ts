// The one way an account comes to exist: registration, an admin's "add user" and the first admin of a new
// installation all go through here, so the uniqueness check and the password hashing are never written twice.
import type { Role } from '../../../contract/domain';
import type { Db } from '../../db/client';
import { findTakenField, insertUser, type UniqueField } from '../../db/repositories/users';
import type { UserRow } from '../../db/schema';
import { hashPassword } from '../../security/passwords';
import { conflict } from '../plugins/http-error';

export const takenMessage = (field: UniqueField) =>
  field === 'username' ? 'Username is already taken' : 'Email is already in use';

export interface NewAccount {
  username: string;
  email: string;
  password: string;
  role?: Role;
  firstName?: string;
  lastName?: string;
}

/** Creates the account; 409 when the username or e-mail belongs to someone already (case-insensitive). */
export async function createAccount(db: Db, account: NewAccount): Promise<UserRow> {
  const taken = await findTakenField(db, account);
  if (taken) throw conflict(takenMessage(taken));
  return insertUser(db, {
    username: account.username,
    email: account.email,
    passwordHash: await hashPassword(account.password),
    ...(account.role && { role: account.role }),
    firstName: account.firstName?.trim() ?? '',
    lastName: account.lastName?.trim() ?? '',
  });
}
