// The simulated venues' paper book on the database: paper_orders holds every fill keyed by (venue, client order id)
// and balances holds the holdings. Recording a fill is one transaction: the order row goes in only if the id is new,
// and every balance moves only if none goes below zero. A retried client order id gets the first fill back.
import Decimal from 'decimal.js';
import { and, eq, sql } from 'drizzle-orm';
import { CURRENCIES, type Currency, type SymbolId, type VenueId } from '../../../contract/domain';
import { VenueError, type LegFill, type PaperBook } from '../../venues/types';
import type { Db } from '../client';
import { balances } from '../schema/balances';
import { paperOrders } from '../schema/trades';
import { ensurePaperBalances } from './balances';

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

  constructor(private readonly db: Db) {}

  async findOrder(userId: string, venue: VenueId, clientOrderId: string): Promise<LegFill | null> {
    const [row] = await this.db
      .select()
      .from(paperOrders)
      .where(
        and(eq(paperOrders.venue, venue), eq(paperOrders.clientOrderId, clientOrderId), eq(paperOrders.userId, userId)),
      )
      .limit(1);
    return row ? toFill(row) : null;
  }

  async recordFill(
    userId: string,
    venue: VenueId,
    symbol: SymbolId,
    fill: LegFill,
    deltas: Partial<Record<Currency, string>>,
  ): Promise<LegFill> {
    await this.seed(userId);
    const recorded = await this.db.transaction(async (tx) => {
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
      for (const currency of CURRENCIES) {
        const delta = deltas[currency];
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
    const rows = await this.db
      .select({ currency: balances.currency, amount: balances.amount })
      .from(balances)
      .where(and(eq(balances.userId, userId), eq(balances.venue, venue)));
    const out: Record<Currency, string> = { USDT: '0', BTC: '0', ETH: '0' };
    for (const row of rows) out[row.currency] = new Decimal(row.amount).toFixed();
    return out;
  }

  private async seed(userId: string): Promise<void> {
    if (this.seeded.has(userId)) return;
    await ensurePaperBalances(this.db, userId);
    this.seeded.add(userId);
  }
}
