// The venues' own figures for pre-trade checks: each venue's limits and fees for a symbol and the account's balances,
// read through the Venue interface and kept briefly (balances until the next fill, limits for a minute), so a burst
// of decisions does not become a burst of venue calls.
import { VENUES, type Currency, type SymbolId, type VenueId } from '../../contract/domain';
import { Kept } from '../venues/kept';
import type { TradeRules, Venue, VenueAccount } from '../venues/types';
import type { AccountLoader } from './ports';
import type { VenueFigures } from './pretrade';

export interface FigureCacheOptions {
  venues: Record<VenueId, Venue>;
  account: AccountLoader;
  now: () => number;
  balancesMs?: number;
  rulesMs?: number;
}

export class VenueFigureCache {
  private readonly balances: Kept<Record<Currency, string>>;
  private readonly rules: Kept<TradeRules>;

  constructor(private readonly options: FigureCacheOptions) {
    this.balances = new Kept(options.balancesMs ?? 10_000, options.now);
    this.rules = new Kept(options.rulesMs ?? 60_000, options.now);
  }

  /** `account`: the user's account when the caller has just read it (a trade reads it once for its checks and orders). */
  async figures(userId: string, symbol: SymbolId, account?: VenueAccount): Promise<Record<VenueId, VenueFigures>> {
    account ??= await this.options.account(userId);
    const read = async (venue: VenueId): Promise<VenueFigures> => {
      const v = this.options.venues[venue];
      const [rules, balances] = await Promise.all([
        this.rules.get(`${userId}|${venue}|${symbol}`, () => v.tradeRules(account, symbol)),
        this.balances.get(`${userId}|${venue}`, () => v.balances(account)),
      ]);
      return { rules, balances };
    };
    const [binance, deriv] = await Promise.all([read('binance'), read('deriv')]);
    return { binance, deriv };
  }

  /** After a fill the balances are read again before the next check (its two keys: no scan of every user's keys). */
  invalidate(userId: string): void {
    for (const venue of VENUES) this.balances.forget(`${userId}|${venue}`);
  }
}
