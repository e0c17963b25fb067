// What the balances fund against the limits a user saves: one definition of the figures and of the warning's words.

/** Present when maxExposure asks for more than the balances fund: the size the engine will actually trade. */
export interface ExposureFunding {
  /** The max exposure saved, USDT. */
  maxExposure: number;
  /** USDT of open trades the balances fund now: Binance's USDT with its fee, Deriv's stake with its commission. */
  funded: number;
  /** The size of an automated trade the limits ask for (a share of maxExposure), USDT. */
  perTradeAsked: number;
  /** The size the engine will trade at while the balances stay as they are, USDT. */
  perTrade: number;
}

const usdt = (value: number): string => value.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function fundingWarning(f: ExposureFunding): string {
  const size =
    f.perTrade < f.perTradeAsked
      ? `${usdt(f.perTrade)} USDT a trade, not the ${usdt(f.perTradeAsked)} your limits ask for`
      : `${usdt(f.perTrade)} USDT a trade`;
  return (
    `Your balances fund about ${usdt(f.funded)} USDT of open trades, less than your max exposure of ` +
    `${usdt(f.maxExposure)} USDT: the engine will trade ${size}.`
  );
}
