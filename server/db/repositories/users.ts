// Users: lookups, creation, profile and settings writes, admin listing. Every function takes `db` (or a transaction).
import { and, count, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { Role } from '../../../contract/domain';
import type { Db } from '../client';
import { users, type NewUserRow, type UserRow } from '../schema';

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Sign-in accepts the e-mail or the username, both case-insensitive. */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | null> {
  const needle = login.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${needle} OR lower(${users.username}) = ${needle}`)
    .orderBy(sql`lower(${users.email}) = ${needle} DESC`)
    .limit(1);
  return row ?? null;
}

export type UniqueField = 'username' | 'email';

/** Which of the given username/e-mail already belong to another user (case-insensitive), if any. */
export async function findTakenField(db: Db, fields: { username: string; email: string }, exceptUserId?: string): Promise<UniqueField | null> {
  const rows = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(sql`(lower(${users.username}) = ${fields.username.toLowerCase()} OR lower(${users.email}) = ${fields.email.toLowerCase()})`);
  const others = rows.filter((r) => r.id !== exceptUserId);
  if (others.some((r) => r.username.toLowerCase() === fields.username.toLowerCase())) return 'username';
  if (others.some((r) => r.email.toLowerCase() === fields.email.toLowerCase())) return 'email';
  return null;
}

export async function insertUser(db: Db, user: NewUserRow): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateUser(db: Db, id: string, changes: Partial<Omit<NewUserRow, 'id' | 'createdAt'>>): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}

export async function touchLastLogin(db: Db, id: string): Promise<UserRow | null> {
  return updateUser(db, id, { lastLogin: new Date() });
}

export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export async function countActiveAdmins(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(and(eq(users.role, 'admin'), eq(users.isActive, true)));
  return row?.n ?? 0;
}

/** Escapes LIKE wildcards so a search for 'a_b' or '50%' means those characters literally. */
function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listUsers(db: Db, filter: { search?: string; role?: Role }): Promise<UserRow[]> {
  const conditions: SQL[] = [];
  const search = filter.search?.trim();
  if (search) conditions.push(ilike(users.username, likeContains(search)));
  if (filter.role) conditions.push(eq(users.role, filter.role));
  return db
    .select()
    .from(users)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(users.createdAt, users.id);
}
