// Whether a user's saved Deriv credentials are complete enough to trade, read from the saved row without decrypting
// anything (the venue_credentials row satisfies SavedDerivCredentials as it is). The rule that refuses to enable live
// trading without keys asks this.
import { isLegacyAppId, type DerivApi } from '../../../contract/deriv';

export interface SavedDerivCredentials {
  /** The encrypted token (either kind), null when none is saved. */
  derivTokenEnc: string | null;
  derivAppId: string;
  /** Which API the token was found to belong to; null until it was looked at. */
  derivApi: DerivApi | null;
  /** The chosen Options account (new API); '' when none. */
  derivAccountId: string;
}

/**
 * What is still missing before these credentials can trade, in the trader's words; null when nothing is. A legacy
 * token needs nothing more (its app ID defaults to DERIV_APP_ID); a personal access token needs its app ID and an
 * account (the only one it reaches is taken when it is first looked at; of several, the user chooses). A token not
 * looked at yet is found out when trading starts.
 */
export function derivCredentialsGap(saved: SavedDerivCredentials | null): string | null {
  if (!saved?.derivTokenEnc) return 'Save your Deriv token';
  if (saved.derivApi !== 'new') return null;
  if (!saved.derivAppId || isLegacyAppId(saved.derivAppId))
    return 'Enter the app ID of the app your Deriv personal access token was made for';
  if (!saved.derivAccountId) return 'Choose which Deriv account to trade (Settings → API Keys)';
  return null;
}

/** Whether the saved Deriv credentials are complete enough to trade (for a personal access token: token, app ID, account). */
export function derivCredentialsComplete(saved: SavedDerivCredentials | null): boolean {
  return derivCredentialsGap(saved) === null;
}
