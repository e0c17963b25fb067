// Which venue keys trading needs. On the simulated market none: it never touches a venue. On the live market the
// engine signs Binance orders with the user's key pair and trades Deriv with the user's token (a personal access token
// also needs its app ID and the account it trades), so turning trading on without them would only produce refusals
// (and a trader reading "trading is on" while nothing can trade).
import type { MarketKind } from '../../contract/domain';
import type { VenueCredentialsRow } from '../db/schema';
import { derivCredentialsGap } from '../venues/deriv/credentials';

export const TRADING_KEYS_MISSING = 'Save your Binance API key and secret and your Deriv token before enabling trading';

/** Why the user cannot trade on this market with the saved credentials; null when nothing is missing. */
export function missingTradingKeys(market: MarketKind, credentials: VenueCredentialsRow | null): string | null {
  if (market === 'sim') return null;
  const saved =
    credentials !== null &&
    credentials.binanceApiKeyEnc !== null &&
    credentials.binanceSecretKeyEnc !== null &&
    credentials.derivTokenEnc !== null;
  if (!saved) return TRADING_KEYS_MISSING;
  const gap = derivCredentialsGap(credentials);
  return gap ? `${gap} before enabling trading` : null;
}
