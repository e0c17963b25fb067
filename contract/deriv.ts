// Deriv's two APIs as the product speaks of them: which one a user's saved token belongs to, the Options accounts it
// reaches, the words Settings and the connection test use for them, and the form rules for the token, the app ID and
// the chosen account. Server and client import these; nothing here depends on either.

/** 'new': a personal access token with its app ID, trading over one-time-password sockets; 'legacy': an API token. */
export const DERIV_APIS = ['new', 'legacy'] as const;
export type DerivApi = (typeof DERIV_APIS)[number];

export const DERIV_ACCOUNT_TYPES = ['demo', 'real'] as const;
export type DerivAccountType = (typeof DERIV_ACCOUNT_TYPES)[number];

/** One Options account as Deriv listed it for the token (legacy: the token's own account, from authorize). */
export interface DerivAccountInfo {
  accountId: string;
  type: DerivAccountType;
  currency: string;
  balance: number;
  status: 'active' | 'inactive';
}

/** What the product knows of a user's Deriv link: never the token, only what Deriv said about it. */
export interface DerivLink {
  /** Which API the saved token was found to belong to; null until a connection test or the first trade. */
  api: DerivApi | null;
  /** The account chosen to trade (new API); '' when none is chosen yet. */
  accountId: string;
  /** The accounts as last read from Deriv. */
  accounts: DerivAccountInfo[];
  /** When Deriv last answered about them (ISO 8601), or null. */
  checkedAt: string | null;
}

export const NO_DERIV_LINK: DerivLink = { api: null, accountId: '', accounts: [], checkedAt: null };

/** Where a personal access token is made, for the token field's hint. */
export const DERIV_PAT_PLACE = 'developers.deriv.com → Dashboard → API tokens';

/** Deriv's new app IDs are letters and digits (21 seen in public code); legacy ones are numbers. */
export const DERIV_APP_ID_MAX = 64;
const APP_ID_PATTERN = /^[A-Za-z0-9]+$/;
/** A bearer token (RFC 6750's b64token characters), as both kinds of Deriv token are sent. */
const TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const DERIV_TOKEN_MIN = 8;
export const DERIV_TOKEN_MAX = 512;
const ACCOUNT_ID_PATTERN = /^[A-Za-z0-9]{2,32}$/;

/** What is wrong with a typed Deriv token, in the user's words; null when it has a token's form ('' = remove). */
export function derivTokenProblem(value: string): string | null {
  if (value === '') return null;
  if (/\s/.test(value)) return 'The Deriv token has spaces in it: paste it again without them';
  if (!TOKEN_PATTERN.test(value)) return 'The Deriv token has characters a token never has: paste it again';
  if (value.length < DERIV_TOKEN_MIN) return `The Deriv token is too short: Deriv's tokens are longer than this`;
  if (value.length > DERIV_TOKEN_MAX) return `The Deriv token is too long (at most ${DERIV_TOKEN_MAX} characters)`;
  return null;
}

/** What is wrong with a typed Deriv app ID; null when it is one ('' = none, for a legacy token). */
export function derivAppIdProblem(value: string): string | null {
  if (value === '') return null;
  if (!APP_ID_PATTERN.test(value)) return 'The Deriv app ID has only letters and digits';
  if (value.length > DERIV_APP_ID_MAX) return `The Deriv app ID has at most ${DERIV_APP_ID_MAX} characters`;
  return null;
}

export function derivAccountIdProblem(value: string): string | null {
  if (value === '' || ACCOUNT_ID_PATTERN.test(value)) return null;
  return 'A Deriv account ID is 2 to 32 letters and digits, e.g. DOT90012345';
}

/** A legacy app ID is a number; the new API's are letters and digits, and legacy ones do not work with it. */
export const isLegacyAppId = (appId: string): boolean => /^\d+$/.test(appId);

const money = (amount: number): string =>
  amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 'demo account DOT90001, 10,000.00 USD' */
export function describeDerivAccount(account: DerivAccountInfo): string {
  const inactive = account.status === 'inactive' ? ' (inactive)' : '';
  return `${account.type} account ${account.accountId}${inactive}, ${money(account.balance)} ${account.currency}`;
}

/** The account the link trades on: the chosen one (new API), or the legacy token's own. */
export function derivAccountInUse(link: DerivLink): DerivAccountInfo | null {
  if (link.api === 'legacy') return link.accounts[0] ?? null;
  return link.accounts.find((a) => a.accountId === link.accountId) ?? null;
}

/**
 * One line for Settings and the connection test: 'Deriv: new API, demo account DOT90001, 10,000.00 USD',
 * 'Deriv: legacy API, real account CR90001, 25.00 USD', or what is still to do.
 */
export function derivStatusLine(link: DerivLink): string {
  if (link.api === null) return 'Deriv: not checked yet. Save the token, then press Test Connection.';
  const api = link.api === 'new' ? 'new API' : 'legacy API';
  const inUse = derivAccountInUse(link);
  if (inUse) return `Deriv: ${api}, ${describeDerivAccount(inUse)}`;
  if (link.accounts.length === 0) return `Deriv: ${api}, but Deriv lists no Options account for this token`;
  if (link.accountId) return `Deriv: ${api}, account ${link.accountId} is no longer listed: choose one below`;
  return `Deriv: ${api}, ${link.accounts.length} accounts: choose the one to trade below`;
}
