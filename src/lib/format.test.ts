import { describe, expect, it } from 'vitest';
import { describeSpread, formatAge, formatBp, formatCountdown } from './format';

describe('describeSpread', () => {
  it.each([
    { spread: 0.0027, text: 'Deriv 0.27% above Binance' },
    { spread: -0.0027, text: 'Deriv 0.27% below Binance' },
    { spread: 0.00001, text: 'Deriv level with Binance' },
    { spread: null, text: 'No spread yet' },
    { spread: Number.NaN, text: 'No spread yet' },
  ])('$spread → $text', ({ spread, text }) => {
    expect(describeSpread(spread)).toBe(text);
  });
});

describe('formatCountdown and formatAge', () => {
  it('shows minutes and seconds left, never below zero', () => {
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(8_200)).toBe('0:09');
    expect(formatCountdown(-5)).toBe('0:00');
  });
  it('shows a quote age to a tenth of a second while it is young', () => {
    expect(formatAge(420)).toBe('0.4 s');
    expect(formatAge(12_400)).toBe('12 s');
    expect(formatAge(null)).toBe('no quote');
  });
});

describe('formatBp', () => {
  it('shows basis points with two decimals', () => {
    expect(formatBp(0.000123)).toBe('1.23 bp');
    expect(formatBp(0)).toBe('0.00 bp');
  });
});
