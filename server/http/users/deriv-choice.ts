// The Deriv account a user chooses to trade must be one Deriv listed for the saved token, and an active one: the
// product never trades an account Deriv did not name, nor picks between demo and real itself.
import type { VenueCredentialsRow } from '../../db/schema';

/** Why the account cannot be chosen, in the user's words; null when it can. */
export function derivChoiceRefusal(row: VenueCredentialsRow | null, accountId: string): string | null {
  if (!row?.derivTokenEnc) return 'Save your Deriv token first, then choose its account';
  if (row.derivApi === 'legacy') return 'A legacy Deriv API token trades its own account: there is none to choose';
  const accounts = row.derivAccounts ?? [];
  if (accounts.length === 0) return 'Press Test Connection first: it lists the Deriv accounts your token reaches';
  const account = accounts.find((a) => a.accountId === accountId);
  if (!account)
    return `Deriv did not list the account ${accountId} for your token: press Test Connection to list them again`;
  if (account.status === 'inactive') return `Deriv lists the account ${accountId} as inactive: choose another`;
  return null;
}
