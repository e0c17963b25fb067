import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SymbolId } from '../../../contract/domain';
import type { Prices, SymbolPrice } from '../../../contract/entities';
import { PAIR_CATALOGUE } from '../../../contract/pairs';
import { LivePrices } from './LivePrices';
import { sortedPairs } from './pairOrder';

const price = (symbol: SymbolId, spread: number | null, profitable = false): SymbolPrice => ({
  symbol,
  binance: 100,
  deriv: spread === null ? null : 100 * (1 + spread),
  spread,
  arbitrage: { profitable },
  timestamp: '2026-11-26T12:00:00Z',
  stale: false,
  ageMs: { binance: 100, deriv: 400 },
});
const ALL = PAIR_CATALOGUE.map((p) => p.symbol);

describe('the order of many pairs', () => {
  it("puts the user's pairs first, then the widest spread either way, a pair without one last", () => {
    const prices: Prices = {
      'BTC/USDT': price('BTC/USDT', 0.0001),
      'ETH/USDT': price('ETH/USDT', -0.003),
      'LTC/USDT': price('LTC/USDT', 0.002),
      'XRP/USDT': price('XRP/USDT', -0.004),
      'SOL/USDT': price('SOL/USDT', null),
    };
    const pairs: SymbolId[] = ['BTC/USDT', 'ETH/USDT', 'LTC/USDT', 'XRP/USDT', 'SOL/USDT', 'BCH/USDT'];
    expect(sortedPairs(pairs, ['BTC/USDT', 'LTC/USDT'], prices)).toEqual([
      'LTC/USDT',
      'BTC/USDT',
      'XRP/USDT',
      'ETH/USDT',
      'SOL/USDT',
      'BCH/USDT',
    ]);
  });
});

describe('Live Prices', () => {
  it('keeps the spec two cards for the default pairs', () => {
    render(<LivePrices prices={{ 'BTC/USDT': price('BTC/USDT', 0.001) }} />);
    expect(screen.getByTestId('price-BTC/USDT').textContent).toMatch(/Bitcoin/);
    expect(screen.getByTestId('price-ETH/USDT').textContent).toMatch(/N\/A/);
    expect(screen.queryByRole('list', { name: /Pairs by spread/ })).toBeNull();
  });

  it('lists a dozen pairs as rows, sorted, marking the ones the user does not trade', () => {
    const prices = Object.fromEntries(ALL.map((s, i) => [s, price(s, (i - 6) / 1000, i === 0)])) as Prices;
    render(<LivePrices prices={prices} pairs={ALL} mine={['DOGE/USDT', 'BTC/USDT']} />);
    const rows = within(screen.getByRole('list', { name: /Pairs by spread/ })).getAllByRole('listitem');
    expect(rows).toHaveLength(12);
    // The user's two first, widest first (BTC −0.6 %, DOGE +0.2 %); then the rest by width, ties in the server's order.
    expect(rows.map((r) => r.dataset['testid'])).toEqual([
      'price-BTC/USDT',
      'price-DOGE/USDT',
      'price-ETH/USDT',
      'price-TRX/USDT',
      'price-LTC/USDT',
      'price-XLM/USDT',
      'price-XRP/USDT',
      'price-DOT/USDT',
      'price-SOL/USDT',
      'price-BCH/USDT',
      'price-ADA/USDT',
      'price-BNB/USDT',
    ]);
    expect(rows[0]?.dataset['profitable']).toBe('true');
    expect(rows[2]?.textContent).toMatch(/not traded by you/);
    // A coin quoted finer than cents shows its own decimals.
    expect(within(rows[1]!).getByTestId('price-deriv').textContent).toBe('$100.20000');
  });
});
