// Paper orders and balances kept in memory: for tests, and for the simulated market when no database book is given.
import Decimal from 'decimal.js';
import { CURRENCIES, type Currency, type SymbolId, type VenueId } from '../../../contract/domain';
import { PAPER_SEED, VenueError, type LegFill, type PaperBook } from '../types';

type Balances = Record<Currency, Decimal>;

export class InMemoryPaperBook implements PaperBook {
  private readonly orders = new Map<string, LegFill>();
  private readonly wallets = new Map<string, Balances>();

  constructor(private readonly seed: Record<VenueId, Record<Currency, string>> = PAPER_SEED) {}

  async findOrder(userId: string, venue: VenueId, clientOrderId: string): Promise<LegFill | null> {
    const fill = this.orders.get(orderKey(userId, venue, clientOrderId));
    return fill ? { ...fill } : null;
  }

  async recordFill(
    userId: string,
    venue: VenueId,
    _symbol: SymbolId,
    fill: LegFill,
    deltas: Partial<Record<Currency, string>>,
  ): Promise<LegFill> {
    // Everything below runs without an await, so it is atomic with respect to other calls.
    const key = orderKey(userId, venue, fill.clientOrderId);
    const first = this.orders.get(key);
    if (first) return { ...first };
    const wallet = this.wallet(userId, venue);
    const next = { ...wallet };
    for (const currency of CURRENCIES) {
      const delta = deltas[currency];
      if (delta === undefined) continue;
      next[currency] = wallet[currency].plus(delta);
      if (next[currency].isNegative()) {
        throw new VenueError(
          venue,
          'insufficient-balance',
          `Insufficient ${currency} on ${venue}: have ${wallet[currency].toFixed()}, need ${new Decimal(delta).negated().toFixed()}`,
        );
      }
    }
    this.wallets.set(walletKey(userId, venue), next);
    this.orders.set(key, { ...fill });
    return { ...fill };
  }

  async balances(userId: string, venue: VenueId): Promise<Record<Currency, string>> {
    const wallet = this.wallet(userId, venue);
    return { USDT: wallet.USDT.toFixed(), BTC: wallet.BTC.toFixed(), ETH: wallet.ETH.toFixed() };
  }

  private wallet(userId: string, venue: VenueId): Balances {
    const existing = this.wallets.get(walletKey(userId, venue));
    if (existing) return existing;
    const seed = this.seed[venue];
    const fresh: Balances = { USDT: new Decimal(seed.USDT), BTC: new Decimal(seed.BTC), ETH: new Decimal(seed.ETH) };
    this.wallets.set(walletKey(userId, venue), fresh);
    return fresh;
  }
}

const orderKey = (userId: string, venue: VenueId, clientOrderId: string): string =>
  `${userId}|${venue}|${clientOrderId}`;
const walletKey = (userId: string, venue: VenueId): string => `${userId}|${venue}`;
