import type { PublicUser } from '../../../contract/entities';
import type { Db } from '../../db/client';
import { findCredentials } from '../../db/repositories/credentials';
import type { UserRow } from '../../db/schema';
import { toPublicUser } from './public-user';

/** The public record of a user row, with its credential masks read from the database. */
export async function loadPublicUser(db: Db, user: UserRow): Promise<PublicUser> {
  return toPublicUser(user, await findCredentials(db, user.id));
}
