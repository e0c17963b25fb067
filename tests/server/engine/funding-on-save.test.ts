// Limits the balances cannot fund are flagged on save (issue 20, finding 9): PUT /users/:id answers, beside the saved
// user, the size the engine will actually trade when maxExposure asks for more than the balances fund.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserResponse } from '../../../contract/api';
import { fundingWarning } from '../../../contract/funding';
import { backends, type SignedIn } from '../helpers/app';
import { createDbEngine, type DbEngine } from './db-engine';

describe.each(backends)('PUT /users/:id and what the balances fund on %s', (backend) => {
  let d: DbEngine;
  let ann: SignedIn;

  beforeAll(async () => {
    d = await createDbEngine(backend);
    ann = await d.t.createUser();
  });
  afterAll(async () => {
    await d?.close();
  });

  const save = async (maxExposure: number) => {
    const res = await d.t.request('PUT', `/api/users/${ann.user._id}`, {
      token: ann.token,
      body: { maxExposure, tradingEnabled: false },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as UserResponse;
  };

  it('flags a maxExposure above the paper balances with the size the engine will use', async () => {
    // 10,000 USDT on each venue: Binance funds 10,000 / 1.001 with its fee; Deriv far more at ×10
    const res = await save(50_000);
    expect(res.user.maxExposure).toBe(50_000);
    expect(res.funding).toEqual({ maxExposure: 50_000, funded: 9990.0, perTradeAsked: 12_500, perTrade: 9990.0 });
    expect(fundingWarning(res.funding!)).toBe(
      'Your balances fund about 9,990 USDT of open trades, less than your max exposure of 50,000 USDT: the engine will trade 9,990 USDT a trade, not the 12,500 your limits ask for.',
    );
  });

  it('says nothing when the balances fund the whole max exposure', async () => {
    const res = await save(5_000);
    expect(res.funding).toBeUndefined();
  });
});
