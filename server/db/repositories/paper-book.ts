// The simulated venues' paper book on the database: paper_orders holds every fill keyed by (venue, client order id)
// and balances holds the holdings. Recording a fill is one transaction: the order row goes in only if the id is new,
// and every balance moves only if none goes below zero. A retried client order id gets the first fill back.
// Under a burst the fills of many users share transactions (each in its own savepoint, lanes by user) and the lookups
// of orders and balances arriving together are one query each (server/db/batch.ts).
import Decimal from 'decimal.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Currency, SymbolId, VenueId } from '../../../contract/domain';
import { enabledCurrencies } from '../../venues/enabled-pairs';
import { VenueError, type LegFill, type PaperBook } from '../../venues/types';
import { ReadBatcher, WriteBatcher } from '../batch';
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

  private readonly orders: ReadBatcher<OrderKey, LegFill | null>;
  private readonly holdings: ReadBatcher<{ userId: string; venue: VenueId }, Record<Currency, string>>;
  private readonly seeds: ReadBatcher<string, true>;
  private readonly fills: WriteBatcher;

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
    this.fills = new WriteBatcher(db);
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
    const recorded = await this.fills.run(userId, async (tx) => {
      const inserted = await tx
        .insert(paperOrders)
        .values({
          venue,
          clientOrderId: fill.clientOrderId,
          userId,
          symbol,
          venueOrderId: fill.venueOrderId,
          price: fill.price,
          quantity: fill.quantity,
          fee: fill.fee,
          createdAt: new Date(fill.at),
        })
        .onConflictDoNothing()
        .returning();
      if (inserted.length === 0) return null; // the id exists: nothing changes
      for (const [currency, delta] of Object.entries(deltas)) {
        if (delta === undefined || new Decimal(delta).isZero()) continue;
        const moved = await tx
          .update(balances)
          .set({ amount: sql`${balances.amount} + ${delta}::numeric`, updatedAt: sql`now()` })
          .where(
            and(
              eq(balances.userId, userId),
              eq(balances.venue, venue),
              eq(balances.currency, currency),
              sql`${balances.amount} + ${delta}::numeric >= 0`,
            ),
          )
          .returning({ amount: balances.amount });
        if (moved.length === 0) {
          // Throwing rolls the order row back too.
          const have = await tx
            .select({ amount: balances.amount })
            .from(balances)
            .where(and(eq(balances.userId, userId), eq(balances.venue, venue), eq(balances.currency, currency)));
          throw new VenueError(
            venue,
            'insufficient-balance',
            `Insufficient ${currency} on ${venue}: have ${new Decimal(have[0]?.amount ?? 0).toFixed()}, need ${new Decimal(delta).negated().toFixed()}`,
          );
        }
      }
      return fill;
    });
    if (recorded) return { ...recorded };
    const first = await this.findOrder(userId, venue, fill.clientOrderId);
    if (!first)
      throw new VenueError(venue, 'rejected', `Client order id ${fill.clientOrderId} belongs to another account`);
    return first;
  }

  async balances(userId: string, venue: VenueId): Promise<Record<Currency, string>> {
    await this.seed(userId);
    return { ...(await this.holdings.load({ userId, venue })) };
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
