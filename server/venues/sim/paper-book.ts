// Paper orders and balances kept in memory: for tests, and for the simulated market when no database book is given.
import Decimal from 'decimal.js';
import type { Currency, SymbolId, VenueId } from '../../../contract/domain';
import { enabledCurrencies } from '../enabled-pairs';
import { VenueError, type LegFill, type PaperBook } from '../types';
import { PAPER_SEED, paperSeedOf } from './paper-seed';

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
    for (const [currency, delta] of Object.entries(deltas)) {
      if (delta === undefined) continue;
      const held = wallet[currency] ?? new Decimal(0);
      const after = held.plus(delta);
      next[currency] = after;
      if (after.isNegative()) {
        throw new VenueError(
          venue,
          'insufficient-balance',
          `Insufficient ${currency} on ${venue}: have ${held.toFixed()}, need ${new Decimal(delta).negated().toFixed()}`,
        );
      }
    }
    this.wallets.set(walletKey(userId, venue), next);
    this.orders.set(key, { ...fill });
    return { ...fill };
  }

  async balances(userId: string, venue: VenueId): Promise<Record<Currency, string>> {
    const wallet = this.wallet(userId, venue);
    // Every currency the enabled pairs hold, and any other the account still has.
    const currencies = new Set([...enabledCurrencies(), ...Object.keys(wallet)]);
    return Object.fromEntries([...currencies].map((c) => [c, (wallet[c] ?? new Decimal(0)).toFixed()]));
  }

  private wallet(userId: string, venue: VenueId): Balances {
    const existing = this.wallets.get(walletKey(userId, venue));
    if (existing) return existing;
    // Every currency the enabled pairs hold, and any other the seed names.
    const currencies = new Set([...enabledCurrencies(), ...Object.keys(this.seed[venue])]);
    const fresh: Balances = Object.fromEntries(
      [...currencies].map((c) => [c, new Decimal(paperSeedOf(this.seed, venue, c))]),
    );
    this.wallets.set(walletKey(userId, venue), fresh);
    return fresh;
  }
}

const orderKey = (userId: string, venue: VenueId, clientOrderId: string): string =>
  `${userId}|${venue}|${clientOrderId}`;
const walletKey = (userId: string, venue: VenueId): string => `${userId}|${venue}`;
