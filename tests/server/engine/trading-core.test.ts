// Decisions of TradingCore, table by table: thresholds, sizing, in-flight exposure, one trade per symbol, closes, the
// maxLoss drawdown, the circuit breaker, quote freshness and the outcomes it reports.
import { describe, expect, it } from 'vitest';
import type { SymbolId } from '../../../contract/domain';
import { DEFAULT_TRADING_PARAMS, openThreshold } from '../../../server/engine/costs';
import { money } from '../../../server/engine/decimal';
import { EMPTY_WINDOW, foldRealised, type RealisedWindow } from '../../../server/engine/drawdown';
import { toPriceTick } from '../../../server/engine/prices';
import { ThresholdIndex } from '../../../server/engine/threshold-index';
import { TradingCore, type Command, type TradeEnd, type UserLimits } from '../../../server/engine/trading-core';

const user = (userId: string, over: Partial<UserLimits> = {}): UserLimits => ({
  userId,
  maxExposure: '1000',
  maxLoss: '100',
  minSpread: 0.002,
  takerFee: 0.001,
  autoTrade: true,
  stopped: null,
  windowStart: null,
  symbols: null,
  ...over,
});

/** A core whose database reads are answered at once from the trades the test ended (as the database would). */
function setup(params = DEFAULT_TRADING_PARAMS) {
  let now = 0;
  let n = 0;
  const core = new TradingCore({ params, now: () => now, newIds: () => ({ id: `id${++n}`, tradeId: `T${n}` }) });
  const windows = new Map<string, RealisedWindow>();
  const run = (commands: Command[]): Command[] =>
    commands.flatMap((c) =>
      c.kind === 'read-realised' ? run(core.realisedRead(c.userId, c.seq, windows.get(c.userId) ?? EMPTY_WINDOW)) : [c],
    );
  const tick = (spread: number, symbol: SymbolId = 'BTC/USDT', ts = { binance: now, deriv: now }) =>
    toPriceTick(
      symbol,
      { venue: 'binance', symbol, bid: 99.99, ask: 100.01, ts: ts.binance },
      { venue: 'deriv', symbol, bid: 100 * (1 + spread) - 0.01, ask: 100 * (1 + spread) + 0.01, ts: ts.deriv },
    );
  /** The user enabled trading again: the database's window starts empty. */
  const newWindow = (userId: string) => windows.delete(userId);
  const end = (
    tradeId: string,
    profit: string | number,
    status: TradeEnd['status'] = 'completed',
    reason: string | null = null,
  ): Command[] => {
    const trade = core.trade(tradeId);
    if (trade) windows.set(trade.userId, foldRealised(windows.get(trade.userId) ?? EMPTY_WINDOW, money(profit)));
    return run(core.onEnded(tradeId, { status, profit: money(profit), reason }));
  };
  return {
    core,
    tick,
    run,
    end,
    on: (spread: number, symbol: SymbolId = 'BTC/USDT') => run(core.onTick(tick(spread, symbol))),
    add: (limits: UserLimits) => run(core.upsertUser(limits)),
    newWindow,
    advance: (ms: number) => (now += ms),
    at: () => now,
  };
}
const opens = (cs: Command[]) => cs.filter((c): c is Extract<Command, { kind: 'open' }> => c.kind === 'open');
const closes = (cs: Command[]) => cs.filter((c): c is Extract<Command, { kind: 'close' }> => c.kind === 'close');
const stops = (cs: Command[]) => cs.filter((c): c is Extract<Command, { kind: 'stop' }> => c.kind === 'stop');
const outcomes = (cs: Command[]) =>
  cs
    .filter((c): c is Extract<Command, { kind: 'outcome' }> => c.kind === 'outcome')
    .map((c) => [c.userId, c.outcome.outcome]);

describe('TradingCore decisions', () => {
  it('opens only when |spread| beats both the user minSpread and the costs', () => {
    const { add, on } = setup();
    const costs = openThreshold(DEFAULT_TRADING_PARAMS, 0, 0.001);
    expect(costs).toBeCloseTo(0.0035, 10); // 2·0.1 % + Deriv 0.05 % + slippage 0.05 % + close band 0.05 %
    add(user('low', { minSpread: 0.002 }));
    add(user('high', { minSpread: 0.006 }));
    expect(opens(on(0.003))).toEqual([]);
    const first = opens(on(0.004));
    expect(first.map((c) => c.trade.userId)).toEqual(['low']);
    expect(first[0]?.trade).toMatchObject({
      direction: 'deriv-rich',
      notional: '250',
      origin: 'auto',
      decision: { binance: { ask: 100.01 } },
    });
    const second = opens(on(-0.007));
    expect(second.map((c) => [c.trade.userId, c.trade.direction])).toEqual([['high', 'binance-rich']]);
  });

  it('counts trades in flight against maxExposure and keeps one open trade per symbol', () => {
    const { core, add, on, tick } = setup();
    add(user('u', { maxExposure: '300' }));
    const a = opens(on(0.01, 'BTC/USDT'));
    expect(a[0]?.trade.notional).toBe('75'); // maxExposure / 4
    expect(opens(on(0.01, 'BTC/USDT'))).toEqual([]); // same symbol: one at a time
    const b = opens(on(0.01, 'ETH/USDT'));
    expect(b[0]?.trade.notional).toBe('75');
    expect(core.committedOf('u').toFixed()).toBe('150'); // neither has filled yet: both count
    const manual = core.manualOpen(user('u', { maxExposure: '300' }), 'BTC/USDT', money(10), tick(0));
    expect(manual).toMatchObject({ ok: false, status: 409 });
  });

  it('sizes the last trade to the remaining exposure and stops below the minimum notional', () => {
    const { core, add, on, end, tick } = setup();
    add(user('u', { maxExposure: '95' }));
    const a = opens(on(0.01, 'BTC/USDT'));
    expect(a[0]?.trade.notional).toBe('23.75');
    const manual = core.manualOpen(user('u'), 'ETH/USDT', money(70), tick(0.0, 'ETH/USDT'));
    expect(manual.ok).toBe(true);
    // 1.25 left: below 10 USDT, no automatic trade
    expect(core.committedOf('u').toFixed()).toBe('93.75');
    end(a[0]?.trade.tradeId as string, 0);
    expect(opens(on(0.01, 'BTC/USDT'))[0]?.trade.notional).toBe('23.75');
  });

  it('closes open trades on convergence, on a widening stop and on the time limit', () => {
    const { core, add, on, end, advance } = setup();
    add(user('a'));
    add(user('b', { minSpread: 0.009 }));
    const [ta] = opens(on(0.005));
    const [tb] = opens(on(0.0095));
    core.onOpened(ta?.trade.tradeId as string);
    core.onOpened(tb?.trade.tradeId as string);
    // a opened at 0.5 %: its stop is at 1.5 %; b's at 1.95 %
    expect(closes(on(0.016)).map((c) => [c.userId, c.reason])).toEqual([['a', 'stop: spread widened']]);
    expect(closes(on(0.0004)).map((c) => [c.userId, c.reason])).toEqual([['b', 'converged']]);
    end(ta?.trade.tradeId as string, 1);
    end(tb?.trade.tradeId as string, 1);
    const [tc] = opens(on(0.006));
    core.onOpened(tc?.trade.tradeId as string);
    advance(DEFAULT_TRADING_PARAMS.maxHoldMs);
    expect(closes(core.checkTimeLimits(DEFAULT_TRADING_PARAMS.maxHoldMs)).map((c) => c.reason)).toEqual(['time limit']);
  });

  it('visits only triggered users on a tick', () => {
    const index = new ThresholdIndex();
    for (let i = 0; i < 1000; i += 1) index.upsert(`u${i}`, 0.002 + (i % 10) * 0.001);
    expect(index.takeUpTo(0.0015)).toEqual([]);
    expect(index.takeUpTo(0.0025)).toHaveLength(100);
    expect(index.size).toBe(900);
    index.upsert('u1', 0.5);
    index.remove('u2');
    expect(index.takeUpTo(0.0035)).toHaveLength(99);
    expect(index.has('u1')).toBe(true);
  });
});

describe('maxLoss as a drawdown (issue 9, findings 2 and 3)', () => {
  it('halts once realised P&L falls maxLoss below its peak, even while still up overall', () => {
    const { core, add, on, end } = setup();
    add(user('u', { maxLoss: '2' }));
    const [win] = opens(on(0.01));
    end(win?.trade.tradeId as string, 86);
    // Up 86: a loss of 3 leaves +83, which the old rule (stop at −2 overall) let through until −88.
    const [loss] = opens(on(0.01));
    const after = end(loss?.trade.tradeId as string, -3);
    expect(stops(after)).toEqual([
      {
        kind: 'stop',
        userId: 'u',
        stop: 'max-loss',
        reason: expect.stringMatching(/^Max loss reached: .*3\.00 USDT below its peak of 86\.00/),
      },
    ]);
    expect(core.stoppedOf('u')).toBe('max-loss');
    expect(opens(on(0.02, 'ETH/USDT'))).toEqual([]);
  });

  it('halts a user whose stored window is already past the limit as soon as it is read, and cancels open trades', () => {
    const { core, run, on } = setup();
    run(core.upsertUser(user('u', { maxLoss: '5' })));
    const [open] = opens(on(0.01));
    core.onOpened(open?.trade.tradeId as string);
    const read = core.upsertUser(user('u', { maxLoss: '5', windowStart: 1 })); // a restart or a new window: read again
    const seq = (read.find((c) => c.kind === 'read-realised') as { seq: number }).seq;
    const halted = core.realisedRead('u', seq, { current: money(-1), peak: money(4.5) });
    expect(stops(halted)).toHaveLength(1);
    expect(closes(halted)).toEqual([expect.objectContaining({ reason: 'max loss reached' })]);
  });

  it('does not open while the realised figure is being read, and uses the newest read', () => {
    const { core } = setup();
    const first = core.upsertUser(user('u'));
    expect(first).toEqual([{ kind: 'read-realised', userId: 'u', seq: 1 }]);
    expect(opens(core.onTick(setup().tick(0.01)))).toEqual([]);
    expect(core.realisedKnown('u')).toBe(false);
    core.realisedRead('u', 1, EMPTY_WINDOW);
    expect(core.realisedKnown('u')).toBe(true);
  });

  it('refuses a manual trade of a user it has forgotten without keeping a book that would wait for a read never asked', () => {
    const { core, add, tick, end } = setup();
    const manualOnly = user('m', { autoTrade: false });
    add(manualOnly);
    const first = core.manualOpen(manualOnly, 'BTC/USDT', money(50), tick(0));
    if (!first.ok) throw new Error(first.message);
    // The trade ends: the user neither trades automatically nor has a trade, so the core forgets them.
    end(first.command.trade.tradeId, 1);
    expect(core.hasUser('m')).toBe(false);
    expect(core.manualOpen(manualOnly, 'BTC/USDT', money(50), tick(0))).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/being updated/),
    });
    expect(core.hasUser('m')).toBe(false);
    add(manualOnly);
    expect(core.manualOpen(manualOnly, 'BTC/USDT', money(50), tick(0))).toMatchObject({ ok: true });
  });

  it('keeps a halt through a stale settings read, and lifts it only with a new window', () => {
    const { core, add, on, end, newWindow } = setup();
    add(user('u', { maxLoss: '1' }));
    const [t] = opens(on(0.01));
    end(t?.trade.tradeId as string, -2);
    expect(core.stoppedOf('u')).toBe('max-loss');
    add(user('u', { maxLoss: '1' })); // read before the halt was saved: same window
    expect(core.stoppedOf('u')).toBe('max-loss');
    newWindow('u');
    add(user('u', { maxLoss: '1', windowStart: 5 })); // the user enabled trading again
    expect(core.stoppedOf('u')).toBeNull();
  });
});

describe('circuit breaker (issue 9, finding 1)', () => {
  it('backs off a symbol with growing delays after failed trades and pauses after three in a row', () => {
    const { add, on, end, advance } = setup();
    add(user('u'));
    const refused = 'Binance refused the order — insufficient USDT';
    const [first] = opens(on(0.01));
    expect(stops(end(first?.trade.tradeId as string, -0.1, 'failed', refused))).toEqual([]);
    expect(opens(on(0.01))).toEqual([]); // backing off
    expect(outcomes(on(-0.01, 'BTC/USDT'))).toEqual([]);
    advance(DEFAULT_TRADING_PARAMS.backoffBaseMs - 1);
    expect(opens(on(0.01))).toEqual([]);
    advance(1);
    const [second] = opens(on(0.01));
    expect(second).toBeDefined();
    end(second?.trade.tradeId as string, -0.1, 'failed', refused);
    advance(DEFAULT_TRADING_PARAMS.backoffBaseMs); // the second wait is twice as long
    expect(opens(on(0.01))).toEqual([]);
    advance(DEFAULT_TRADING_PARAMS.backoffBaseMs);
    const [third] = opens(on(0.01));
    const paused = end(third?.trade.tradeId as string, -0.1, 'failed', refused);
    expect(stops(paused)).toEqual([
      { kind: 'stop', userId: 'u', stop: 'paused', reason: `${refused} (3 failed trades in a row)` },
    ]);
    advance(3_600_000);
    expect(opens([...on(0.01), ...on(0.01, 'ETH/USDT')])).toEqual([]);
  });

  it('forgets failures after a completed trade', () => {
    const { add, on, end, advance } = setup();
    add(user('u'));
    for (let i = 0; i < 2; i += 1) {
      const [t] = opens(on(0.01));
      end(t?.trade.tradeId as string, -0.1, 'failed', 'refused');
      advance(60_000);
    }
    const [ok] = opens(on(0.01));
    end(ok?.trade.tradeId as string, 1, 'completed');
    const [again] = opens(on(0.01));
    expect(stops(end(again?.trade.tradeId as string, -0.1, 'failed', 'refused'))).toEqual([]);
  });

  it('skips a trade a pre-trade check refused without counting it as a failure, and waits before trying again', () => {
    const { core, add, on, at, advance } = setup();
    add(user('u'));
    const [t] = opens(on(-0.01));
    const skipped = core.onSkipped(t?.trade.tradeId as string, 'not enough BTC on Binance for the mirror sell', -0.01);
    expect(outcomes(skipped)).toEqual([['u', 'pretrade_failed']]);
    expect(core.committedOf('u').toFixed()).toBe('0');
    expect(opens(on(-0.01))).toEqual([]);
    advance(DEFAULT_TRADING_PARAMS.skipCooldownMs);
    expect(at()).toBe(DEFAULT_TRADING_PARAMS.skipCooldownMs);
    expect(opens(on(-0.01))).toHaveLength(1);
    expect(core.stoppedOf('u')).toBeNull();
  });
});

describe('quotes and outcomes (issue 9, finding 6)', () => {
  it('does not open on a stale or torn pair, and says why to those it would have triggered', () => {
    const { core, add, tick, run, advance } = setup();
    add(user('u'));
    advance(10_000);
    const stale = run(core.onTick(tick(0.01, 'BTC/USDT', { binance: 10_000, deriv: 5_000 })));
    expect(opens(stale)).toEqual([]);
    expect(outcomes(stale)).toEqual([['u', 'quote_stale']]);
    const torn = run(core.onTick(tick(0.01, 'BTC/USDT', { binance: 10_000, deriv: 9_750 })));
    expect(opens(torn)).toEqual([]);
    expect(outcomes(torn)).toEqual([['u', 'quotes_apart']]);
    // still waiting: the first fresh pair opens
    expect(opens(run(core.onTick(tick(0.01, 'BTC/USDT', { binance: 10_000, deriv: 9_900 }))))).toHaveLength(1);
  });

  it('tells the users an opportunity did not trigger why, once per opportunity', () => {
    const { add, on, advance } = setup();
    add(user('picky', { minSpread: 0.02 }));
    add(user('off', { autoTrade: false }));
    const first = on(0.01);
    expect(outcomes(first)).toEqual([['picky', 'below_min_spread']]);
    expect(outcomes(on(0.011))).toEqual([]);
    on(0);
    advance(DEFAULT_TRADING_PARAMS.outcomeEveryMs);
    expect(outcomes(on(0.01))).toEqual([['picky', 'below_min_spread']]);
  });
});
