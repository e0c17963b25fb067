// What "Test connection" answers on the simulated market, where no venue is reached.
import type { TestConnectionBody } from '../../../contract/api';
import { VENUE_NAMES } from '../../../contract/domain';
import type { VenueAccount } from '../../venues/types';

/**
 * The simulated market makes no connection: the answer says so, and what it did check — whether keys are given or
 * saved (their shape was checked by the schema when they were typed or saved). Keys are optional there.
 */
export function simulatedTestMessage(
  exchange: TestConnectionBody['exchange'],
  body: TestConnectionBody,
  saved: VenueAccount,
): string {
  const venue = VENUE_NAMES[exchange];
  const has =
    exchange === 'binance'
      ? Boolean(
          (body.apiKey || saved.credentials.binanceApiKey) && (body.secretKey || saved.credentials.binanceSecretKey),
        )
      : Boolean(body.token || saved.credentials.derivToken);
  const keys = exchange === 'binance' ? 'API key and secret' : 'token';
  return has
    ? `Simulated market: no connection to ${venue} is made. Checked: your ${venue} ${keys} ${body.apiKey || body.token ? 'are' : 'are saved and'} in a valid format; they are not used here.`
    : `Simulated market: no connection to ${venue} is made and no keys are needed. Checked: no ${venue} ${keys} saved, which is fine here.`;
}
