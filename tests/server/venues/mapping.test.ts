// Pure pieces of the live connectors: reconnect delays, fee conversion, and error mapping tables.
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../server/venues/backoff';
import { toVenueError as binanceError } from '../../../server/venues/binance/errors';
import { BinanceHttpError } from '../../../server/venues/binance/exchange';
import { commissionInUsdt, toLegFill } from '../../../server/venues/binance/fills';
import { DerivApiError, DerivConnectionError } from '../../../server/venues/deriv/client';
import { toVenueError as derivError } from '../../../server/venues/deriv/errors';
import { impliedExitSpot } from '../../../server/venues/deriv/venue';

describe('backoffDelay', () => {
  it('grows exponentially within [ceiling/2, ceiling] and stops at the cap', () => {
    const options = { initialMs: 100, maxMs: 1000 };
    expect(backoffDelay(0, options, () => 0)).toBe(50);
    expect(backoffDelay(0, options, () => 1)).toBe(100);
    expect(backoffDelay(3, options, () => 1)).toBe(800);
    expect(backoffDelay(10, options, () => 1)).toBe(1000);
    expect(backoffDelay(60, options, () => 0.5)).toBe(750);
  });
});

describe('Binance fills', () => {
  const fill = (commission: string, commissionAsset: string) => ({
    price: '50000',
    qty: '0.02',
    commission,
    commissionAsset,
  });

  it('values commission in USDT whatever asset it was paid in', () => {
    expect(commissionInUsdt('BTC/USDT', [fill('0.00002', 'BTC')], '0.001').toFixed()).toBe('1');
    expect(commissionInUsdt('BTC/USDT', [fill('1', 'USDT')], '0.001').toFixed()).toBe('1');
    // BNB: charged at the taker rate on the quote amount.
    expect(commissionInUsdt('BTC/USDT', [fill('0.0015', 'BNB')], '0.00075').toFixed()).toBe('0.75');
  });

  it('averages the price over the executed quantity and refuses an unfilled order', () => {
    const order = {
      orderId: 7,
      clientOrderId: 'c',
      executedQty: '0.03',
      cummulativeQuoteQty: '1500.3',
      status: 'FILLED',
      transactTime: 5,
    };
    expect(toLegFill('BTC/USDT', order, [], '0.001', 'open')).toEqual({
      clientOrderId: 'c',
      venueOrderId: '7',
      price: '50010',
      quantity: '0.03',
      fee: '0',
      at: 5,
    });
    expect(() => toLegFill('BTC/USDT', { ...order, executedQty: '0', status: 'EXPIRED' }, [], '0.001', 'open')).toThrow(
      /expired unfilled/,
    );
  });

  it('holds an opening buy net of the commission taken in the coin, its value charged once as the fee (issue 9, finding 8)', () => {
    const buy = {
      orderId: 8,
      clientOrderId: 'b',
      side: 'BUY',
      executedQty: '0.02',
      cummulativeQuoteQty: '1000',
      status: 'FILLED',
      transactTime: 6,
    };
    const fills = [{ price: '50000', qty: '0.02', commission: '0.00002', commissionAsset: 'BTC' }];
    expect(toLegFill('BTC/USDT', buy, fills, '0.001', 'open')).toMatchObject({
      price: '50000',
      quantity: '0.01998',
      fee: '1',
    });
    // a buy that closes a short keeps the quantity it bought: the coins lost to commission are its fee
    expect(toLegFill('BTC/USDT', buy, fills, '0.001', 'close')).toMatchObject({ quantity: '0.02', fee: '1' });
  });
});

describe('Binance error mapping', () => {
  const body = (code: number, msg: string) => new ccxt.ExchangeError(`binance {"code":${code},"msg":"${msg}"}`);
  it.each([
    [body(-2015, 'Invalid API-key, IP, or permissions for action.'), 'order', 'auth'],
    [body(-2014, 'API-key format invalid.'), 'read', 'auth'],
    [body(-1022, 'Signature for this request is not valid.'), 'read', 'auth'],
    [
      new ccxt.InsufficientFunds('binance Account has insufficient balance for requested action.'),
      'order',
      'insufficient-balance',
    ],
    [body(-2010, 'Account has insufficient balance for requested action.'), 'order', 'insufficient-balance'],
    [body(-2010, 'Duplicate order sent.'), 'order', 'rejected'],
    [body(-1021, 'Timestamp for this request is outside of the recvWindow.'), 'read', 'rejected'],
    [body(-1121, 'Invalid symbol.'), 'order', 'rejected'],
    [new BinanceHttpError(429, 3000, '{}'), 'read', 'rate-limit'],
    [new BinanceHttpError(418, undefined, '{}'), 'order', 'rate-limit'],
    [new BinanceHttpError(503, undefined, ''), 'order', 'unknown-outcome'],
    [new BinanceHttpError(502, undefined, ''), 'read', 'unavailable'],
    [new ccxt.RequestTimeout('binance timed out'), 'order', 'unknown-outcome'],
    [new ccxt.NetworkError('binance fetch failed'), 'read', 'unavailable'],
  ] as const)('%s while %s → %s', (error, phase, kind) => {
    const mapped = binanceError(error, phase);
    expect(mapped.kind).toBe(kind);
    expect(mapped.venue).toBe('binance');
  });

  it('keeps the Retry-After delay', () => {
    expect(binanceError(new BinanceHttpError(429, 3000, '{}'), 'read').retryAfterMs).toBe(3000);
  });
});

describe('Deriv error mapping', () => {
  it.each([
    ['InvalidToken', 'read', 'auth'],
    ['AuthorizationRequired', 'order', 'auth'],
    ['PermissionDenied', 'order', 'auth'],
    ['InvalidAppID', 'read', 'auth'],
    ['InsufficientBalance', 'order', 'insufficient-balance'],
    ['RateLimit', 'read', 'rate-limit'],
    ['InternalServerError', 'order', 'unknown-outcome'],
    ['InternalServerError', 'read', 'unavailable'],
    ['ContractCreationFailure', 'read', 'rejected'],
  ] as const)('%s while %s → %s', (code, phase, kind) => {
    expect(derivError(new DerivApiError(code, 'message', 'buy'), phase).kind).toBe(kind);
  });

  it('treats a lost connection as an unknown outcome for orders only', () => {
    expect(derivError(new DerivConnectionError('lost'), 'order').kind).toBe('unknown-outcome');
    expect(derivError(new DerivConnectionError('lost'), 'read').kind).toBe('unavailable');
  });
});

describe('impliedExitSpot', () => {
  it('recovers the exit spot from what a multiplier sold for', () => {
    const short = {
      contract_id: 1,
      contract_type: 'MULTDOWN',
      underlying: 'cryBTCUSD',
      buy_price: 100,
      multiplier: 10,
      entry_spot: 80000,
      commission: 0.3,
      is_sold: 1,
    };
    // 100 + 1000 × (1 − 79200/80000) − 0.3
    expect(impliedExitSpot(short, 109.7)).toBeCloseTo(79200, 6);
    const long = { ...short, contract_type: 'MULTUP', entry_spot: 3000 };
    // 100 + 1000 × (3030/3000 − 1) − 0.3
    expect(impliedExitSpot(long, 109.7)).toBeCloseTo(3030, 6);
  });
});
