// Users: lookups, creation, profile and settings writes, trading settings, admin listing. Every function takes `db`
// (or a transaction).
import { and, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_MIN_SPREAD, FINISHED_STATUSES, type Role } from '../../../contract/domain';
import type { Db } from '../client';
import { trades, users, type NewUserRow, type UserRow } from '../schema';

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
export async function findTakenField(
  db: Db,
  fields: { username: string; email: string },
  exceptUserId?: string,
): Promise<UniqueField | null> {
  const rows = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(
      sql`(lower(${users.username}) = ${fields.username.toLowerCase()} OR lower(${users.email}) = ${fields.email.toLowerCase()})`,
    );
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

/** The trading switch and its stop are written only through server/trading (repositories/trading-state.ts). */
type TradingStateColumns =
  'tradingEnabled' | 'tradingStop' | 'tradingEnabledAt' | 'tradingPausedAt' | 'tradingPauseReason';

/** Column values, or SQL computed by the database; never the trading state (see TradingStateColumns). */
export type UserChanges = {
  [K in keyof Omit<NewUserRow, 'id' | 'createdAt' | TradingStateColumns>]?: NewUserRow[K] | SQL;
};

export async function updateUser(db: Db, id: string, changes: UserChanges): Promise<UserRow | null> {
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

/** The user's row, locked until the transaction ends (a trade inserted meanwhile waits for it). */
export async function lockUser(tx: Db, id: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row ?? null;
}

export async function deleteUser(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/**
 * Ids of the active admins, locked until the transaction ends, so two admins removing each other at the same time
 * cannot both succeed and leave none.
 */
export async function lockActiveAdmins(tx: Db): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true)))
    .for('update');
  return rows.map((r) => r.id);
}

const FIRST_ADMIN_LOCK_KEY = 7_202_612;

/** Serialises the first-admin check of instances starting at once on one database, until the transaction ends. */
export async function lockFirstAdminCheck(tx: Db): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_KEY})`);
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

// ---- trading settings ----

/** The user's minSpread (fraction); the default when the user is unknown. */
export async function findMinSpread(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ minSpread: users.minSpread }).from(users).where(eq(users.id, userId)).limit(1);
  const value = row ? Number(row.minSpread) : NaN;
  return Number.isFinite(value) ? value : DEFAULT_MIN_SPREAD;
}

const tradingColumns = {
  userId: users.id,
  maxExposure: users.maxExposure,
  maxLoss: users.maxLoss,
  minSpread: users.minSpread,
  tradingEnabled: users.tradingEnabled,
  tradingStop: users.tradingStop,
  tradingEnabledAt: users.tradingEnabledAt,
  tradingPausedAt: users.tradingPausedAt,
  tradingPauseReason: users.tradingPauseReason,
  symbols: users.symbols,
};

/** Every active user with tradingEnabled. */
export function listTradingSettings(db: Db) {
  return db
    .select(tradingColumns)
    .from(users)
    .where(and(eq(users.tradingEnabled, true), eq(users.isActive, true)));
}

export type TradingSettingsRow = Awaited<ReturnType<typeof listTradingSettings>>[number];

/** An active user's trading settings; null when unknown or deactivated. */
export async function findTradingSettings(db: Db, userId: string): Promise<TradingSettingsRow | null> {
  const [row] = await db
    .select(tradingColumns)
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isActive, true)))
    .limit(1);
  return row ?? null;
}

/**
 * The realised P&L of the user's finished trades (completed, failed, cancelled) closed since trading was last
 * enabled, in the order they closed: its final value and its running peak (at least 0). server/engine/drawdown.ts
 * folds the same figure; maxLoss is the largest allowed distance between the two.
 */
export async function realisedWindow(db: Db, userId: string): Promise<{ current: string; peak: string }> {
  return (await realisedWindows(db, [userId])).get(userId) ?? { current: '0', peak: '0' };
}

/** The same for many users in one query (the engine reads it after every trade's end); a user without trades is absent. */
export async function realisedWindows(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, { current: string; peak: string }>> {
  if (userIds.length === 0) return new Map();
  const running = db
    .select({
      userId: trades.userId,
      profit: trades.actualProfit,
      cumulative:
        sql<string>`sum(${trades.actualProfit}) over (partition by ${trades.userId} order by ${trades.closedAt}, ${trades.id})`.as(
          'cumulative',
        ),
    })
    .from(trades)
    .innerJoin(users, eq(users.id, trades.userId))
    .where(
      and(
        inArray(trades.userId, [...userIds]),
        inArray(trades.status, [...FINISHED_STATUSES]),
        sql`${trades.closedAt} >= coalesce(${users.tradingEnabledAt}, '-infinity'::timestamptz)`,
      ),
    )
    .as('running');
  const rows = await db
    .select({
      userId: running.userId,
      current: sql<string>`coalesce(sum(${running.profit}), 0)::text`,
      peak: sql<string>`greatest(0, coalesce(max(${running.cumulative}), 0))::text`,
    })
    .from(running)
    .groupBy(running.userId);
  return new Map(rows.map((row) => [row.userId, { current: row.current, peak: row.peak }]));
}

/** How many of the user's trades are not finished (deleting or deactivating the user waits for them). */
export async function countOpenTrades(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(trades)
    .where(and(eq(trades.userId, userId), eq(trades.status, 'pending')));
  return row?.n ?? 0;
}
