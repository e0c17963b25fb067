import { describe, expect, it } from 'vitest';
import { csvField, plainDecimal, tradeCsvLine, TRADES_CSV_COLUMNS } from './csv';

describe('trades CSV', () => {
  it('writes decimals with a point, without exponent or stored trailing zeros', () => {
    expect(plainDecimal(1.5e-7)).toBe('0.00000015');
    expect(plainDecimal(-2.5e-10)).toBe('-0.00000000025');
    expect(plainDecimal(1e21)).toBe('1000000000000000000000');
    expect(plainDecimal(0.1)).toBe('0.1');
    expect(plainDecimal('12.3400000000')).toBe('12.34');
    expect(plainDecimal('-0.0000000000')).toBe('0');
    expect(plainDecimal('5')).toBe('5');
  });

  it('quotes separators and defuses formulas in text only', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=1+1', true)).toBe("'=1+1");
    expect(csvField('-3')).toBe('-3');
  });

  it('gives the same line from the server’s strings and the client’s numbers', () => {
    const fill = (fee: string) => ({ price: '100.50', quantity: '0.25', fee, at: '2026-01-01T00:00:00.000Z' });
    const asStrings = {
      _id: 'a',
      tradeId: 'T-1',
      symbol: 'BTC/USDT',
      status: 'completed',
      origin: 'auto',
      totalAmount: '25.1250000000',
      arbitrageSpread: '0.0020000000',
      actualProfit: '-0.1000000000',
      reason: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      closedAt: null,
      legs: [{ venue: 'binance' as const, side: 'buy', open: fill('0.1'), close: fill('0.2') }],
    };
    const asNumbers = {
      ...asStrings,
      totalAmount: 25.125,
      arbitrageSpread: 0.002,
      actualProfit: -0.1,
      legs: [
        {
          venue: 'binance' as const,
          side: 'buy',
          open: { ...fill('0.1'), price: 100.5, quantity: 0.25, fee: 0.1 },
          close: { ...fill('0.2'), price: 100.5, quantity: 0.25, fee: 0.2 },
        },
      ],
    };
    const line = tradeCsvLine(asStrings);
    expect(tradeCsvLine(asNumbers)).toBe(line);
    // 0.1 + 0.2 summed exactly, not 0.30000000000000004.
    expect(line.split(',')[10]).toBe('0.3');
    expect(line.trimEnd().split(',')).toHaveLength(TRADES_CSV_COLUMNS.length);
  });
});
