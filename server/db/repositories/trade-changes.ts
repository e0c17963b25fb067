// The trade history as a feed of changes: every insert and every step of a trade sets its updated_at, so the caller's
// trades ordered by (updated_at, id) are a log a client can follow with a cursor and receive only what changed since
// it last asked (the history sync, src/services/trades/history). Walks trades_user_updated_idx (migration 0016).
import { and, count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Trade } from '../../../contract/entities';
import type { Db } from '../client';
import { trades } from '../schema/trades';
import { toTradeDto } from './trades';

/**
 * A change becomes final this long after its updated_at: a write whose timestamp was taken (by the app or the
 * database's transaction start) before it committed can land in the table with an updated_at older than changes
 * already handed out. So the cursor of a caught-up answer never passes now − CHANGE_SETTLE_MS: what changed in that
 * last stretch is sent again next time (stored idempotently by id), and a late commit within it is not skipped.
 */
export const CHANGE_SETTLE_MS = 30_000;

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export interface TradeChangesPage {
  trades: Trade[];
  cursor: string | null;
  more: boolean;
  total: number;
}

/** updated_at to the microsecond (a JavaScript Date keeps milliseconds only, and the cursor must not round). */
const changeAt = sql<string>`to_char(${trades.updatedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const cursorOf = (at: string, id: string) => `${at}_${id}`;
const parse = (cursor: string) => {
  const at = cursor.slice(0, cursor.indexOf('_'));
  return { at, id: cursor.slice(at.length + 1) };
};
/** An instant as the cursor spells it: ISO with six fractional digits. */
const microIso = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');

/** The later of two cursors (they compare as text: fixed-width time first, then id). */
const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);
/** The earlier of two cursors. */
const earlier = (a: string, b: string) => (a < b ? a : b);

export async function listTradeChanges(
  db: Db,
  userId: string,
  query: { after?: string; limit: number },
  now = Date.now(),
): Promise<TradeChangesPage> {
  const settled = cursorOf(microIso(now - CHANGE_SETTLE_MS), NIL_UUID);
  const mine = eq(trades.userId, userId);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(trades).where(mine);

  if (query.limit === 0) {
    // Only where the feed stands: the newest change, held back to the settled part.
    const [newest] = await db
      .select({ at: changeAt, id: trades.id })
      .from(trades)
      .where(mine)
      .orderBy(sql`${trades.updatedAt} desc`, sql`${trades.id} desc`)
      .limit(1);
    const head = newest ? earlier(cursorOf(newest.at, newest.id), settled) : null;
    return { trades: [], cursor: later(query.after ?? null, head), more: false, total };
  }

  const from = query.after ? parse(query.after) : null;
  const rows = await db
    .select({ ...getTableColumns(trades), changeAt })
    .from(trades)
    .where(
      from ? and(mine, sql`(${trades.updatedAt}, ${trades.id}) > (${from.at}::timestamptz, ${from.id}::uuid)`) : mine,
    )
    .orderBy(trades.updatedAt, trades.id)
    .limit(query.limit + 1);
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  const reached = last ? cursorOf(last.changeAt, last.id) : null;
  // More to come: continue exactly after this page (were it held back, the caller would get this page again and
  // again). Caught up: hold the cursor back to the settled part, but never behind where the caller already stood.
  const cursor = more ? reached : later(query.after ?? null, reached && earlier(reached, settled));
  return { trades: page.map(toTradeDto), cursor, more, total };
}
