import { describe, expect, it } from 'vitest';
import type { OpportunityOutcome } from '../../../contract/entities';
import { foldOutcome, mergeOutcomes } from './outcomeList';

const o = (
  symbol: OpportunityOutcome['symbol'],
  outcome: OpportunityOutcome['outcome'],
  at: number,
  reason = 'why',
): OpportunityOutcome => ({
  symbol,
  spread: 0.004,
  direction: 'deriv-rich',
  outcome,
  reason,
  tradeId: outcome === 'taken' ? `T${at}` : null,
  at: new Date(at).toISOString(),
});
const fold = (...items: OpportunityOutcome[]) => items.reduce<OpportunityOutcome[]>((l, x) => foldOutcome(l, x, 4), []);

describe('foldOutcome', () => {
  it.each([
    { name: 'puts the newest first', items: [o('BTC/USDT', 'taken', 1), o('ETH/USDT', 'paused', 2)], expected: [2, 1] },
    {
      name: 'replaces a repeat of the newest outcome (same pair, result and reason)',
      items: [o('BTC/USDT', 'below_min_spread', 1), o('BTC/USDT', 'below_min_spread', 2)],
      expected: [2],
    },
    {
      name: 'keeps a repeat with another reason',
      items: [o('BTC/USDT', 'quote_stale', 1, 'Deriv 3 s'), o('BTC/USDT', 'quote_stale', 2, 'Binance 4 s')],
      expected: [2, 1],
    },
    {
      name: 'keeps every taken trade',
      items: [o('BTC/USDT', 'taken', 1), o('BTC/USDT', 'taken', 2)],
      expected: [2, 1],
    },
    {
      name: 'keeps a repeat once another outcome came between',
      items: [o('BTC/USDT', 'paused', 1), o('ETH/USDT', 'paused', 2), o('BTC/USDT', 'paused', 3)],
      expected: [3, 2, 1],
    },
    {
      name: 'keeps at most the limit',
      items: [1, 2, 3, 4, 5, 6].map((t) => o('BTC/USDT', 'taken', t)),
      expected: [6, 5, 4, 3],
    },
  ])('$name', ({ items, expected }) => {
    expect(fold(...items).map((x) => Date.parse(x.at))).toEqual(expected);
  });
});

describe('mergeOutcomes', () => {
  it("joins the kept list with the server's once each, newest first, at most the limit", () => {
    const kept = [o('BTC/USDT', 'taken', 5), o('ETH/USDT', 'paused', 3), o('BTC/USDT', 'paused', 1)];
    const server = [o('ETH/USDT', 'halted', 6), o('BTC/USDT', 'taken', 5), o('ETH/USDT', 'paused', 2)];
    expect(mergeOutcomes(kept, server, 4).map((x) => [Date.parse(x.at), x.outcome])).toEqual([
      [6, 'halted'],
      [5, 'taken'],
      [3, 'paused'],
      [2, 'paused'],
    ]);
  });
});
