// The simulated venues' paper book on the database: paper_orders holds every fill keyed by (venue, client order id)
// and balances holds the holdings. Recording a fill is atomic: the order row goes in only if the id is new and no
// balance would go below zero, and then every balance moves with it. A retried client order id gets the first fill back.
// Under a burst the fills of many accounts are one statement (lanes by account and venue) and the lookups of orders
// and balances arriving together are one query each (server/db/batch.ts).
import Decimal from 'decimal.js';
import { inArray, sql } from 'drizzle-orm';
import type { Currency, SymbolId, VenueId } from '../../../contract/domain';
import { enabledCurrencies } from '../../venues/enabled-pairs';
import { VenueError, type LegFill, type PaperBook } from '../../venues/types';
import { ReadBatcher, StatementBatcher } from '../batch';
import type { Db } from '../client';
import { balances } from '../schema/balances';
import { paperOrders } from '../schema/trades';
import { ensurePaperBalancesOf } from './balances';

type PaperOrderRow = typeof paperOrders.$inferSelect;

const toFill = (row: PaperOrderRow): LegFill => ({
  clientOrderId: row.clientOrderId,
  venueOrderId: row.venueOrderId,
  price: new Decimal(row.price).toFixed(),
  quantity: new Decimal(row.quantity).toFixed(),
  fee: new Decimal(row.fee).toFixed(),
  at: row.createdAt.getTime(),
});

export class DbPaperBook implements PaperBook {
  /** Users whose starting balances are known to exist, so the seed insert runs once per user and process. */
  private readonly seeded = new Set<string>();
  /**
   * Each account's balances as last read or moved by a fill of this book, by `user|venue`: the pre-trade checks of
   * the next trade read them from here, not from the database. Only this book moves paper balances, and a user is
   * traded by one engine at a time (shards), so they stay what the database holds; the fill itself is still checked
   * against the database's rows (a kept figure only sizes the order, it never lets a balance go below zero).
   */
  private readonly held = new Map<string, Record<Currency, string>>();
  /** Fills recorded per account, to tell a read that predates one. */
  private readonly fillsOf = new Map<string, number>();

  private readonly orders: ReadBatcher<OrderKey, LegFill | null>;
  private readonly holdings: ReadBatcher<{ userId: string; venue: VenueId }, Record<Currency, string>>;
  private readonly seeds: ReadBatcher<string, true>;
  private readonly fills: StatementBatcher<PaperFill, FillOutcome>;

  constructor(private readonly db: Db) {
    this.orders = new ReadBatcher((keys) => this.readOrders(keys), orderKey, null);
    this.holdings = new ReadBatcher(
      (keys) => this.readBalances(keys),
      (k) => `${k.userId}|${k.venue}`,
      emptyBalances(),
    );
    this.seeds = new ReadBatcher(
      async (ids) => {
        await ensurePaperBalancesOf(this.db, ids);
        return new Map(ids.map((id) => [id, true as const]));
      },
      (id) => id,
      true,
    );
    this.fills = new StatementBatcher((fills) => recordFills(this.db, fills));
  }

  findOrder(userId: string, venue: VenueId, clientOrderId: string): Promise<LegFill | null> {
    return this.orders.load({ userId, venue, clientOrderId });
  }

  async recordFill(
    userId: string,
    venue: VenueId,
    symbol: SymbolId,
    fill: LegFill,
    deltas: Partial<Record<Currency, string>>,
  ): Promise<LegFill> {
    await this.seed(userId);
    const moves = enabledCurrencies().flatMap((currency) => {
      const delta = deltas[currency];
      return delta === undefined || new Decimal(delta).isZero() ? [] : [{ currency, delta }];
    });
    // Lanes by account and venue: a trade's two legs touch different balance rows and may share a statement.
    const outcome = await this.fills.run(`${userId}|${venue}`, { userId, venue, symbol, fill, moves });
    if (outcome.short) {
      const { currency, have, delta } = outcome.short;
      throw new VenueError(
        venue,
        'insufficient-balance',
        `Insufficient ${currency} on ${venue}: have ${new Decimal(have).toFixed()}, need ${new Decimal(delta).negated().toFixed()}`,
      );
    }
    if (outcome.recorded) {
      this.moved(userId, venue, outcome.nowHeld);
      return { ...fill };
    }
    // The id exists: nothing changed, and the first fill is the answer if it is this account's.
    const first = await this.findOrder(userId, venue, fill.clientOrderId);
    if (!first)
      throw new VenueError(venue, 'rejected', `Client order id ${fill.clientOrderId} belongs to another account`);
    return first;
  }

  async balances(userId: string, venue: VenueId): Promise<Record<Currency, string>> {
    const key = `${userId}|${venue}`;
    const known = this.held.get(key);
    if (known) return { ...known };
    await this.seed(userId);
    const fillsBefore = this.fillsOf.get(key) ?? 0;
    const read = await this.holdings.load({ userId, venue });
    // Kept only if no fill of this account was recorded while the read was on its way (it may predate that fill).
    if ((this.fillsOf.get(key) ?? 0) === fillsBefore) this.held.set(key, { ...read });
    return { ...read };
  }

  /** A recorded fill: the amounts it moved, as the database holds them now, replace the kept ones. */
  private moved(userId: string, venue: VenueId, nowHeld: Partial<Record<Currency, string>>): void {
    const key = `${userId}|${venue}`;
    this.fillsOf.set(key, (this.fillsOf.get(key) ?? 0) + 1);
    const known = this.held.get(key);
    if (!known) return;
    for (const [currency, amount] of Object.entries(nowHeld) as Array<[Currency, string | undefined]>) {
      if (amount !== undefined) known[currency] = new Decimal(amount).toFixed();
    }
  }

  private async readOrders(keys: OrderKey[]): Promise<Map<string, LegFill | null>> {
    const ids = [...new Set(keys.map((k) => k.clientOrderId))];
    const rows = await this.db.select().from(paperOrders).where(inArray(paperOrders.clientOrderId, ids));
    const found = new Map<string, LegFill | null>();
    for (const row of rows) found.set(orderKey(row), toFill(row));
    return found;
  }

  private async readBalances(
    keys: Array<{ userId: string; venue: VenueId }>,
  ): Promise<Map<string, Record<Currency, string>>> {
    const users = [...new Set(keys.map((k) => k.userId))];
    const rows = await this.db
      .select({ userId: balances.userId, venue: balances.venue, currency: balances.currency, amount: balances.amount })
      .from(balances)
      .where(inArray(balances.userId, users));
    const out = new Map<string, Record<Currency, string>>();
    for (const row of rows) {
      const key = `${row.userId}|${row.venue}`;
      const held = out.get(key) ?? emptyBalances();
      held[row.currency] = new Decimal(row.amount).toFixed();
      out.set(key, held);
    }
    return out;
  }

  private async seed(userId: string): Promise<void> {
    if (this.seeded.has(userId)) return;
    await this.seeds.load(userId);
    this.seeded.add(userId);
  }
}

interface OrderKey {
  userId: string;
  venue: VenueId;
  clientOrderId: string;
}

/** An order belongs to its user: another account's client order id is never found. */
const orderKey = (k: OrderKey): string => `${k.userId}|${k.venue}|${k.clientOrderId}`;

const emptyBalances = (): Record<Currency, string> => Object.fromEntries(enabledCurrencies().map((c) => [c, '0']));

/** A fill to record and the balances it moves (zero moves left out). */
interface PaperFill {
  userId: string;
  venue: VenueId;
  symbol: SymbolId;
  fill: LegFill;
  moves: Array<{ currency: Currency; delta: string }>;
}

/** Recorded; or refused for want of a balance (nothing written); or neither: the client order id existed already. */
interface FillOutcome {
  recorded: boolean;
  short: { currency: Currency; have: string; delta: string } | null;
  /** The amounts of the currencies the fill moved, as the statement left them. */
  nowHeld: Partial<Record<Currency, string>>;
}

/**
 * Records many fills (at most one per account and venue) in one statement, so atomically each: the balance rows of the
 * accounts are locked, a fill that would take any of them below zero (or meets a missing row) writes nothing, the
 * others insert their order row unless its client order id exists, and only a fill whose row went in moves balances.
 */
export async function recordFills(db: Db, fills: readonly PaperFill[]): Promise<FillOutcome[]> {
  if (fills.length === 0) return [];
  const param = <T>(values: T[]) => sql.param(values);
  const at = (pick: (f: PaperFill, k: number) => unknown) => param(fills.map(pick));
  const moves = fills.flatMap((f, k) => f.moves.map((m) => ({ k, ...m })));
  const result = await db.execute(sql`
    WITH f AS (
      SELECT * FROM unnest(
        ${at((_, k) => k)}::int[], ${at((f) => f.userId)}::uuid[], ${at((f) => f.venue)}::text[],
        ${at((f) => f.fill.clientOrderId)}::text[], ${at((f) => f.symbol)}::text[],
        ${at((f) => f.fill.venueOrderId)}::text[], ${at((f) => f.fill.price)}::numeric[],
        ${at((f) => f.fill.quantity)}::numeric[], ${at((f) => f.fill.fee)}::numeric[],
        ${at((f) => new Date(f.fill.at).toISOString())}::timestamptz[]
      ) AS f(k, user_id, venue, client_order_id, symbol, venue_order_id, price, quantity, fee, created_at)
    ),
    d AS (
      SELECT * FROM unnest(
        ${param(moves.map((m) => m.k))}::int[], ${param(moves.map((m) => m.currency))}::text[],
        ${param(moves.map((m) => m.delta))}::numeric[]
      ) AS d(k, currency, delta)
    ),
    held AS (
      SELECT b.user_id, b.venue, b.currency, b.amount FROM balances b
      JOIN f ON b.user_id = f.user_id AND b.venue = f.venue
      FOR UPDATE OF b
    ),
    short AS (
      SELECT DISTINCT ON (d.k) d.k, d.currency, COALESCE(h.amount, 0) AS have, d.delta
      FROM d JOIN f ON f.k = d.k
      LEFT JOIN held h ON h.user_id = f.user_id AND h.venue = f.venue AND h.currency = d.currency
      WHERE h.amount IS NULL OR h.amount + d.delta < 0
      ORDER BY d.k, d.currency
    ),
    ins AS (
      INSERT INTO paper_orders (venue, client_order_id, user_id, symbol, venue_order_id, price, quantity, fee, created_at)
      SELECT f.venue, f.client_order_id, f.user_id, f.symbol, f.venue_order_id, f.price, f.quantity, f.fee, f.created_at
      FROM f WHERE NOT EXISTS (SELECT 1 FROM short s WHERE s.k = f.k)
      ON CONFLICT DO NOTHING
      RETURNING user_id, venue, client_order_id
    ),
    moved AS (
      UPDATE balances b SET amount = b.amount + d.delta, updated_at = now()
      FROM d
      JOIN f ON f.k = d.k
      JOIN ins ON ins.user_id = f.user_id AND ins.venue = f.venue AND ins.client_order_id = f.client_order_id
      WHERE b.user_id = f.user_id AND b.venue = f.venue AND b.currency = d.currency
      RETURNING b.user_id, b.venue, b.currency, b.amount
    )
    SELECT f.k, s.currency AS short_currency, s.have::text AS have, s.delta::text AS delta,
      (ins.client_order_id IS NOT NULL) AS recorded,
      (SELECT json_object_agg(m.currency, m.amount::text) FROM moved m
        WHERE m.user_id = f.user_id AND m.venue = f.venue) AS now_held
    FROM f
    LEFT JOIN short s ON s.k = f.k
    LEFT JOIN ins ON ins.user_id = f.user_id AND ins.venue = f.venue AND ins.client_order_id = f.client_order_id
  `);
  const rows = (result as unknown as { rows: FillRow[] }).rows;
  const byK = new Map(rows.map((row) => [Number(row.k), row]));
  return fills.map((_, k) => {
    const row = byK.get(k);
    if (!row) throw new Error('a fill of the batch was not answered');
    const short = row.short_currency
      ? { currency: row.short_currency, have: String(row.have), delta: String(row.delta) }
      : null;
    // json arrives parsed from PostgreSQL's driver, as text from some others.
    const nowHeld: Partial<Record<Currency, string>> | null =
      typeof row.now_held === 'string' ? (JSON.parse(row.now_held) as Partial<Record<Currency, string>>) : row.now_held;
    return { recorded: row.recorded === true || row.recorded === 't', short, nowHeld: nowHeld ?? {} };
  });
}

interface FillRow {
  k: number | string;
  short_currency: Currency | null;
  have: string | null;
  delta: string | null;
  recorded: boolean | string;
  now_held: Partial<Record<Currency, string>> | string | null;
}
