// SYMBOLS is checked at start against what the market offers: on the live market Binance's exchangeInfo and Deriv's
// active_symbols and contracts_for (here the fake venues, which speak those protocols: LTC and BCH on both, SOL on
// Binance only); on the simulated market the pairs it models. A pair a venue lacks is refused, named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SYMBOLS, PAIR_CATALOGUE, parseSymbolList, type SymbolId } from '../../../contract/pairs';
import { ConfigError, loadConfig } from '../../../server/config';
import { offeredPairs, pairProblems } from '../../../server/venues/pair-check';
import { startFakeBinance, type FakeBinance } from '../../fakes/binance/server';
import { startFakeDeriv, type FakeDeriv } from '../../fakes/deriv/server';

describe('SYMBOLS', () => {
  it('defaults to the spec two pairs and reads a list in the catalogue order', () => {
    expect(loadConfig({}).symbols).toEqual(DEFAULT_SYMBOLS);
    expect(loadConfig({ SYMBOLS: ' ltc/usdt , BTC/USDT' }).symbols).toEqual(['BTC/USDT', 'LTC/USDT']);
  });

  it('refuses a pair the product does not know, a repeated one and an empty list, naming them', () => {
    const problem = (SYMBOLS: string) => {
      try {
        loadConfig({ SYMBOLS });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems.join('\n');
      }
      throw new Error('expected a ConfigError');
    };
    expect(problem('BTC/USDT,FOO/USDT')).toMatch(/^SYMBOLS: FOO\/USDT is not a pair this product trades/);
    expect(problem('BTC/USDT,btc/usdt')).toBe('SYMBOLS: BTC/USDT named twice');
    expect(problem(' , ')).toBe('SYMBOLS: name at least one pair, e.g. BTC/USDT,ETH/USDT');
    expect(parseSymbolList(PAIR_CATALOGUE.map((p) => p.symbol).join(','))).toEqual({
      symbols: PAIR_CATALOGUE.map((p) => p.symbol),
    });
  });
});

describe('the start-up check against the fake venues', () => {
  let binance: FakeBinance;
  let deriv: FakeDeriv;
  const live = () => ({ market: 'live' as const, binanceRestUrl: binance.restUrl, derivPublicWsUrl: deriv.publicUrl });
  const check = async (symbols: SymbolId[]) => pairProblems(await offeredPairs(live(), symbols), 'live');

  beforeAll(async () => {
    [binance, deriv] = await Promise.all([startFakeBinance(), startFakeDeriv()]);
  });
  afterAll(async () => {
    await Promise.all([binance?.close(), deriv?.close()]);
  });

  it('accepts pairs both venues offer', async () => {
    expect(await check(['BTC/USDT', 'ETH/USDT', 'LTC/USDT', 'BCH/USDT'])).toEqual([]);
  });

  it('refuses a pair one venue lacks, naming the pair and the venue', async () => {
    expect(await check(['BTC/USDT', 'SOL/USDT'])).toEqual([
      'SYMBOLS: SOL/USDT is not offered by Deriv (no crySOLUSD with MULTUP and MULTDOWN)',
    ]);
    expect(await check(['XRP/USDT'])).toEqual([
      'SYMBOLS: XRP/USDT is not offered by Binance nor Deriv (no trading spot XRPUSDT; no cryXRPUSD with MULTUP and MULTDOWN)',
    ]);
  });

  it('asked Deriv its public socket for the list and each pair offer', async () => {
    const asked = deriv.requests.map((r) => r.call);
    expect(asked).toContain('active_symbols');
    expect(asked).toContain('contracts_for');
  });

  it('on the simulated market, accepts every pair the market models', async () => {
    const all = PAIR_CATALOGUE.map((p) => p.symbol);
    expect(pairProblems(await offeredPairs({ ...live(), market: 'sim' }, all), 'sim')).toEqual([]);
  });
});
