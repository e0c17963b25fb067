// The fake Binance itself: it must verify requests the way Binance documents, or the connector tests prove nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binanceSignature, extractSignature, signatureMatches } from '../../fakes/binance/signature';
import { startFakeBinance, type FakeBinance } from '../../fakes/binance/server';

const VECTOR_SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const VECTOR_PAYLOAD =
  'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
const VECTOR_SIGNATURE = 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71';

describe('Binance request signatures', () => {
  it('reproduces the documented test vector', () => {
    expect(binanceSignature(VECTOR_SECRET, VECTOR_PAYLOAD)).toBe(VECTOR_SIGNATURE);
    expect(signatureMatches(VECTOR_SECRET, VECTOR_PAYLOAD, VECTOR_SIGNATURE)).toBe(true);
    expect(signatureMatches(VECTOR_SECRET, VECTOR_PAYLOAD.replace('quantity=1', 'quantity=2'), VECTOR_SIGNATURE)).toBe(
      false,
    );
  });

  it('signs query string followed by body, as received, for the documented mixed case', () => {
    const query = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC';
    const body = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    const signature = binanceSignature(VECTOR_SECRET, query + body);
    expect(signature).toBe('0fd168b8ddb4876a0358a8d14d0c9f3da0e9b20c5d52b2a00fcf7d1c602f9a77');
    expect(extractSignature(query, `${body}&signature=${signature}`)).toEqual({ payload: query + body, signature });
    expect(extractSignature(`${VECTOR_PAYLOAD}&signature=${VECTOR_SIGNATURE}`, '')).toEqual({
      payload: VECTOR_PAYLOAD,
      signature: VECTOR_SIGNATURE,
    });
  });
});

describe('fake Binance over HTTP', () => {
  const apiKey = 'a'.repeat(64);
  const secret = 'b'.repeat(64);
  let fake: FakeBinance;

  beforeAll(async () => {
    fake = await startFakeBinance({ accounts: [{ apiKey, secret }] });
  });
  afterAll(() => fake.close());

  const signedGet = (path: string, query: string, sign = true) =>
    fetch(`${fake.restUrl}${path}?${query}${sign ? `&signature=${binanceSignature(secret, query)}` : ''}`, {
      headers: { 'X-MBX-APIKEY': apiKey },
    });

  it('answers a correctly signed request', async () => {
    const res = await signedGet('/api/v3/account', `timestamp=${Date.now()}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { accountType: string; commissionRates: { taker: string } };
    expect(body.accountType).toBe('SPOT');
    expect(body.commissionRates.taker).toBe('0.00100000');
  });

  it('refuses a stale timestamp with -1021 and a missing signature with -1102', async () => {
    const stale = await signedGet('/api/v3/account', `recvWindow=5000&timestamp=${Date.now() - 60_000}`);
    expect(stale.status).toBe(400);
    expect(await stale.json()).toMatchObject({ code: -1021 });
    const unsigned = await signedGet('/api/v3/account', `timestamp=${Date.now()}`, false);
    expect(await unsigned.json()).toMatchObject({ code: -1102 });
  });

  it('serves book tickers for one symbol or a JSON list', async () => {
    fake.pushQuote('BTCUSDT', '70000.00', '70000.50');
    const one = await (await fetch(`${fake.restUrl}/api/v3/ticker/bookTicker?symbol=BTCUSDT`)).json();
    expect(one).toMatchObject({ symbol: 'BTCUSDT', bidPrice: '70000.00', askPrice: '70000.50' });
    const list = (await (
      await fetch(`${fake.restUrl}/api/v3/ticker/bookTicker?symbols=${encodeURIComponent('["BTCUSDT","ETHUSDT"]')}`)
    ).json()) as unknown[];
    expect(list).toHaveLength(2);
  });
});
