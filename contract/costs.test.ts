import { describe, expect, it } from 'vitest';
import { costFloor, openThreshold, TRADING_COSTS } from './costs';

describe('costFloor', () => {
  it('is the close band plus fees on open and close, commission and slippage: 35 bp at the default fee', () => {
    expect(costFloor()).toBeCloseTo(0.0035, 12);
    expect(costFloor(TRADING_COSTS, 0)).toBeCloseTo(0.0015, 12);
  });
  it('sets the open threshold whenever the user asks for less', () => {
    expect(openThreshold(TRADING_COSTS, 0.002, 0.001)).toBeCloseTo(0.0035, 12);
    expect(openThreshold(TRADING_COSTS, 0.01, 0.001)).toBe(0.01);
  });
});
