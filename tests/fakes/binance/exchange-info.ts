// The slice of GET /api/v3/exchangeInfo the fake serves: a few USDT spot symbols with Binance's real filters (more
// than Deriv's fake offers, so a pair only one venue has can be refused).
export interface FakeSymbol {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  tickSize: string;
  stepSize: string;
}

export const FAKE_SYMBOLS: FakeSymbol[] = [
  { symbol: 'BTCUSDT', baseAsset: 'BTC', quoteAsset: 'USDT', tickSize: '0.01000000', stepSize: '0.00001000' },
  { symbol: 'ETHUSDT', baseAsset: 'ETH', quoteAsset: 'USDT', tickSize: '0.01000000', stepSize: '0.00010000' },
  { symbol: 'LTCUSDT', baseAsset: 'LTC', quoteAsset: 'USDT', tickSize: '0.01000000', stepSize: '0.00100000' },
  { symbol: 'BCHUSDT', baseAsset: 'BCH', quoteAsset: 'USDT', tickSize: '0.10000000', stepSize: '0.00100000' },
  { symbol: 'SOLUSDT', baseAsset: 'SOL', quoteAsset: 'USDT', tickSize: '0.01000000', stepSize: '0.00100000' },
];

export function exchangeInfo(now: number): unknown {
  return {
    timezone: 'UTC',
    serverTime: now,
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
    ],
    exchangeFilters: [],
    symbols: FAKE_SYMBOLS.map((s) => ({
      symbol: s.symbol,
      status: 'TRADING',
      baseAsset: s.baseAsset,
      baseAssetPrecision: 8,
      quoteAsset: s.quoteAsset,
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      baseCommissionPrecision: 8,
      quoteCommissionPrecision: 8,
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
      icebergAllowed: true,
      ocoAllowed: true,
      quoteOrderQtyMarketAllowed: true,
      allowTrailingStop: true,
      cancelReplaceAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: s.tickSize, maxPrice: '1000000.00000000', tickSize: s.tickSize },
        { filterType: 'LOT_SIZE', minQty: s.stepSize, maxQty: '9000.00000000', stepSize: s.stepSize },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.00000000', maxQty: '100.00000000', stepSize: '0.00000000' },
        {
          filterType: 'NOTIONAL',
          minNotional: '5.00000000',
          applyMinToMarket: true,
          maxNotional: '9000000.00000000',
          applyMaxToMarket: false,
          avgPriceMins: 5,
        },
      ],
      permissions: [],
      permissionSets: [['SPOT']],
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
    })),
  };
}
