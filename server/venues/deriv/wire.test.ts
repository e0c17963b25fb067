import { describe, expect, it } from 'vitest';
import { num, readContract, readPortfolio } from './wire';

describe("reading Deriv's answers from either API", () => {
  it('reads numbers sent as numbers or numeric strings, and nothing else', () => {
    expect([num(12.5), num('12.50'), num('-0.30'), num(null), num(''), num('n/a'), num(undefined)]).toEqual([
      12.5,
      12.5,
      -0.3,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads the new API’s proposal_open_contract (strings, underlying_symbol, exit_spot) like the legacy one', () => {
    const common = { contract_id: 7, contract_type: 'MULTDOWN', multiplier: 50, is_sold: 1, status: 'sold' };
    const legacy = readContract({
      ...common,
      underlying: 'cryBTCUSD',
      buy_price: 20,
      bid_price: 21.4,
      commission: 0.3,
      entry_spot: 80000,
      current_spot: 79900,
      sell_spot: 79900,
      exit_tick: 79900,
      sell_price: 21.4,
      sell_time: 1700000100,
      purchase_time: 1700000000,
      profit: 1.4,
    });
    const current = readContract({
      ...common,
      underlying_symbol: 'cryBTCUSD',
      buy_price: '20.00',
      bid_price: '21.40',
      commission: '0.30',
      entry_spot: '80000.000',
      current_spot: '79900.000',
      exit_spot: '79900.000',
      sell_price: '21.40',
      sell_time: 1700000100,
      purchase_time: 1700000000,
      profit: '1.40',
    });
    expect(current).toEqual(legacy);
    expect(
      readContract({ ...common, is_sold: 0, underlying_symbol: 'x', entry_spot: null, sell_price: null }),
    ).toMatchObject({ entry_spot: undefined, sell_price: undefined, is_sold: 0 });
  });

  it('reads portfolio contracts named by underlying_symbol or symbol, multipliers only', () => {
    const answer = {
      portfolio: {
        contracts: [
          {
            contract_id: 1,
            contract_type: 'MULTUP',
            underlying_symbol: 'cryETHUSD',
            buy_price: '10.00',
            purchase_time: 5,
          },
          { contract_id: 2, contract_type: 'MULTDOWN', symbol: 'cryBTCUSD', buy_price: 20, purchase_time: 6 },
          { contract_id: 3, contract_type: 'CALL', symbol: 'R_100', buy_price: 1, purchase_time: 7 },
        ],
      },
    };
    expect(readPortfolio(answer)).toEqual([
      { contractId: 1, contractType: 'MULTUP', underlying: 'cryETHUSD', buyPrice: 10, purchaseTime: 5 },
      { contractId: 2, contractType: 'MULTDOWN', underlying: 'cryBTCUSD', buyPrice: 20, purchaseTime: 6 },
    ]);
  });
});
