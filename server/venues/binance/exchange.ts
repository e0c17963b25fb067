// The ccxt Binance client, pointed at the configured endpoints and taught to report HTTP status precisely:
// a 5xx on an order means "outcome unknown", a 429 carries Retry-After, and ccxt alone blurs both.
import ccxt from 'ccxt';

export interface BinanceEndpoints {
  /** REST base, e.g. https://api.binance.com */
  restUrl: string;
  /** Stream base, e.g. wss://stream.binance.com:9443 */
  wsUrl: string;
}

export interface BinanceCredentials {
  apiKey: string;
  secret: string;
}

/** An HTTP-level failure the connector must treat by status, not by ccxt's guess from the body. */
export class BinanceHttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
    readonly body: string,
  ) {
    super(`binance HTTP ${status} ${body.slice(0, 300)}`);
    this.name = 'BinanceHttpError';
  }
}

type Dict = Record<string, unknown>;

class BinanceClient extends ccxt.pro.binance {
  override handleErrors(
    code: number,
    reason: string,
    url: string,
    method: string,
    headers: Dict,
    body: string,
    response: unknown,
    requestHeaders: unknown,
    requestBody: unknown,
  ): undefined {
    if (code === 429 || code === 418 || code >= 500)
      throw new BinanceHttpError(code, retryAfterMs(headers), body ?? '');
    return super.handleErrors(code, reason, url, method, headers, body, response, requestHeaders, requestBody);
  }
}

function retryAfterMs(headers: Dict): number | undefined {
  const entry = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'retry-after');
  const seconds = Number(entry?.[1]);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

export type BinanceExchange = InstanceType<typeof ccxt.pro.binance>;

export async function createBinanceExchange(
  endpoints: BinanceEndpoints,
  credentials?: BinanceCredentials,
): Promise<BinanceExchange> {
  const rest = endpoints.restUrl.replace(/\/+$/, '');
  const exchange = new BinanceClient({
    apiKey: credentials?.apiKey,
    secret: credentials?.secret,
    enableRateLimit: true,
    // ccxt's cost units are request weight over 20 per second (its 1200-a-minute past); Binance allows 6000 a
    // minute now, so 10 ms a unit stays within the limit without delaying an order leg behind its own lookup.
    rateLimit: 10,
    // Spot only: otherwise loadMarkets also calls the futures, margin and currency endpoints.
    options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false, defaultType: 'spot' },
  });
  const api = exchange.urls['api'] as Record<string, unknown>;
  exchange.urls['api'] = {
    ...api,
    public: `${rest}/api/v3`,
    private: `${rest}/api/v3`,
    v1: `${rest}/api/v1`,
    sapi: `${rest}/sapi/v1`,
    ws: { ...(api['ws'] as Record<string, unknown>), spot: `${endpoints.wsUrl.replace(/\/+$/, '')}/ws` },
  };
  // ccxt sets up its (proxy-capable) agents here; without it, watch* over plain ws:// fails.
  await exchange.loadHttpProxyAgent();
  return exchange;
}
