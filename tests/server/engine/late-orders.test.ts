// No order is ever sent late (issue 21): the real app and database with a slow venue double (each order takes a
// quarter of a second) and two order slots per venue, so a burst of twelve users cannot all be served before Deriv's
// next tick. Every order that leaves does so before its decision's deadline; the decisions that cannot make it are
// dropped with 'engine_busy' before any order, and no trade fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbPaperBook } from '../../../server/db/repositories/paper-book';
import { DEFAULT_TRADING_PARAMS } from '../../../server/engine/costs';
import type { LegOrder, VenueAccount } from '../../../server/venues/types';
import { ScriptedVenue } from '../../../tools/doubles/scripted-venue';
import { backends } from '../helpers/app';
import { createDbEngine, type DbEngine } from './db-engine';

const USERS = 12;
const ORDER_MS = 250;

/** A scripted venue whose every order takes ORDER_MS, recording when each opening order left. */
class SlowVenue extends ScriptedVenue {
  readonly sentAt: number[] = [];
  override openLeg(account: VenueAccount, order: LegOrder) {
    this.sentAt.push(Date.now());
    return super.openLeg(account, order);
  }
}

describe.each(backends)('orders under a burst on a slow venue on %s', (backend) => {
  let d: DbEngine;
  let binance: SlowVenue;
  let deriv: SlowVenue;

  beforeAll(async () => {
    d = await createDbEngine(backend, {}, (t) => {
      const book = new DbPaperBook(t.db);
      binance = new SlowVenue('binance', book, ORDER_MS);
      deriv = new SlowVenue('deriv', book, ORDER_MS);
      for (const v of [binance, deriv]) {
        v.push('BTC/USDT', 60_000);
        v.push('ETH/USDT', 3_000);
      }
      return { venues: { binance, deriv }, lanes: { perVenue: 2, perAccount: 4 } };
    });
    for (let i = 0; i < USERS; i += 1) {
      const user = await d.t.createUser();
      const added = await d.t.request('POST', '/api/exchanges/trading/add-user', { token: user.token });
      expect(added.statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await d?.close();
  });

  it('sends every order before its deadline and drops the rest before any order', async () => {
    const at = Date.now();
    binance.push('BTC/USDT', 60_000, at);
    deriv.push('BTC/USDT', 60_000 * 1.01, at);
    const deadline = at + DEFAULT_TRADING_PARAMS.derivQuoteEveryMs - DEFAULT_TRADING_PARAMS.orderLeadMs;
    const dropped = () =>
      d.events.filter((e) => e.type === 'opportunity_outcome' && e.outcome.outcome === 'engine_busy').length;
    const opened = () => new Set(d.events.flatMap((e) => (e.type === 'new_trade' ? [e.trade.tradeId] : []))).size;
    // Every user's decision is either traded or dropped.
    await d.until('every decision settled', async () => opened() + dropped() >= USERS, 10_000);
    await d.engine.idle();

    expect(binance.sentAt.length).toBeGreaterThan(0);
    expect(dropped()).toBeGreaterThan(0);
    for (const sent of [...binance.sentAt, ...deriv.sentAt]) expect(sent).toBeLessThanOrEqual(deadline);
    // Both legs of every trade that was sent; none sent one leg alone, none failed.
    expect(deriv.sentAt.length).toBe(binance.sentAt.length);
    const failed = d.events.filter((e) => e.type === 'trade_updated' && e.trade.status === 'failed');
    expect(failed).toEqual([]);
    expect(d.logs.filter((l) => l.obj.event === 'engine_busy').length).toBe(dropped());
  });
});
