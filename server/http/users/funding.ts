// What the balances fund against a saved maxExposure: read from the venues the engine trades on, with the engine's
// own sizing rule (engine/pretrade.ts), so the answer names the size the engine will actually use.
import type { FastifyInstance } from 'fastify';
import type { VenueId } from '../../../contract/domain';
import type { ExposureFunding } from '../../../contract/funding';
import { DEFAULT_TRADING_PARAMS } from '../../engine/costs';
import { Money, money } from '../../engine/decimal';
import { fundableNotional, type PreTradeOrder, type VenueFigures } from '../../engine/pretrade';

/**
 * Null when the balances fund the whole maxExposure, and also when they cannot be read here (an instance without
 * the engine, a live venue without keys or out of reach): the save itself never depends on a venue.
 */
export async function exposureFunding(
  app: FastifyInstance,
  userId: string,
  maxExposure: string,
): Promise<ExposureFunding | null> {
  const engine = app.engine;
  if (!engine) return null;
  try {
    const account = await app.loadVenueAccount(userId);
    const read = async (venue: VenueId): Promise<VenueFigures> => {
      const v = engine.venues[venue];
      const [rules, balances] = await Promise.all([v.tradeRules(account, 'BTC/USDT'), v.balances(account)]);
      return { rules, balances };
    };
    const [binance, deriv] = await Promise.all([read('binance'), read('deriv')]);
    const exposure = money(maxExposure);
    // The usual direction (buy spot with USDT, short Deriv): what the USDT on both venues covers.
    const order = (notional: Money): PreTradeOrder => ({
      symbol: 'BTC/USDT',
      direction: 'deriv-rich',
      notional,
      binancePrice: 1,
    });
    // All open trades together: the balances alone, without the largest single order or stake.
    const funded = fundableNotional(
      order(exposure),
      { ...binance, rules: { ...binance.rules, maxNotional: null } },
      { ...deriv, rules: { ...deriv.rules, maxStake: null } },
    );
    if (funded.gte(exposure)) return null;
    const { minNotional, perTradeExposureFraction } = DEFAULT_TRADING_PARAMS;
    const asked = Money.max(exposure.times(perTradeExposureFraction), minNotional).toDecimalPlaces(2, Money.ROUND_DOWN);
    const perTrade = fundableNotional(order(asked), binance, deriv);
    return {
      maxExposure: exposure.toNumber(),
      funded: funded.toNumber(),
      perTradeAsked: asked.toNumber(),
      perTrade: perTrade.toNumber(),
    };
  } catch {
    return null;
  }
}
