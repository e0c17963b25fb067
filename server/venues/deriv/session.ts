// One user's way into Deriv, by either API. The saved token decides: found out new API first (a personal access
// token with its app ID lists its Options accounts over REST), else the legacy API (an API token authorizes on the v3
// socket). New API (authentication.md, get-accounts.md, websocket.md): the account is the one chosen, or the only one
// listed, never a guess between demo and real; its currency is read from the listing; each connection and
// reconnection asks for a fresh one-time-password URL and nothing is authorized on the socket. Legacy API: as before.
import { isLegacyAppId, type DerivAccountInfo, type DerivApi } from '../../../contract/deriv';
import type { BackoffOptions } from '../backoff';
import { VenueError, type VenueAccount, type VenueFacts } from '../types';
import { DerivClient, DerivConnectionError, type Json } from './client';
import { isMissingAppId, toVenueError } from './errors';
import { DerivRestError, type DerivRest, type DerivRestCredentials } from './rest';

export interface SessionDeps {
  /** The legacy socket, e.g. wss://ws.derivws.com/websockets/v3 */
  legacyUrl: string;
  /** App id for legacy tokens saved without one (DERIV_APP_ID). */
  defaultAppId: string;
  rest: DerivRest;
  backoff?: BackoffOptions;
  pingIntervalMs?: number;
  requestTimeoutMs?: number;
}

/** A connection that trades one Deriv account. */
export interface DerivSession {
  api: DerivApi;
  client: DerivClient;
  account: DerivAccountInfo;
  /** The request field that names the underlying (new API: underlying_symbol). */
  symbolField: 'symbol' | 'underlying_symbol';
  /** Legacy API: the token's scopes as authorize listed them. */
  scopes: string[];
}

/** What Deriv said about a token: its API, its accounts, and the one to trade (or why there is none yet). */
export interface Identified {
  api: DerivApi;
  accounts: DerivAccountInfo[];
  account: DerivAccountInfo | null;
  /** Why no account can be traded yet, in the trader's words. */
  problem: string | null;
  /** The account taken because the token reaches only that one (to be remembered as chosen). */
  chosen?: string;
  /** Legacy: the connection that authorized the token, reused as the session's. */
  legacy?: DerivClient;
}

/**
 * Deriv documents 100 requests a second and 100 streams per connection on the new API's sockets (api-overview.md).
 * Kept with room: a burst sent a second after another can arrive closer together than it left.
 */
export const NEW_API_SOCKET_LIMITS = { rate: { limit: 90, windowMs: 1250 }, maxSubscriptions: 100 };

const FORBIDDEN_SCOPES = ['payments', 'admin'];

export const factsOf = (identified: Identified): VenueFacts => ({
  deriv: { api: identified.api, accounts: identified.accounts, chosen: identified.chosen },
});

const restCredentials = (credentials: VenueAccount['credentials']): DerivRestCredentials => ({
  token: credentials.derivToken ?? '',
  appId: credentials.derivAppId || undefined,
});

/**
 * Finds out which API the token belongs to (new API first), unless `redetect` is false and the API is known, and
 * which account it trades.
 */
export async function identify(
  credentials: VenueAccount['credentials'],
  deps: SessionDeps,
  redetect: boolean,
): Promise<Identified> {
  if (!credentials.derivToken) throw new VenueError('deriv', 'auth', 'No Deriv token is saved');
  if (!redetect && credentials.derivApi === 'legacy') return identifyLegacy(credentials, deps);
  if (!redetect && credentials.derivApi === 'new')
    return identifyNew(credentials, await listAccounts(credentials, deps));
  // An app ID of letters is the new API's: a legacy socket would refuse it, and the token is not sent there.
  const appId = credentials.derivAppId ?? '';
  if (appId && !isLegacyAppId(appId)) return identifyNew(credentials, await listAccounts(credentials, deps));
  let newApiRefusal: DerivRestError | DerivConnectionError;
  try {
    return identifyNew(credentials, await deps.rest.accounts(restCredentials(credentials)));
  } catch (error) {
    // Any refusal but two may be a legacy token's: Deriv naming it a personal access token without its app ID, and
    // its rate limit. So may any token when the new API cannot be reached or fails.
    const mayBeLegacy =
      (error instanceof DerivRestError && error.status !== 429 && !isMissingAppId(error)) ||
      error instanceof DerivConnectionError;
    if (!mayBeLegacy) throw toVenueError(error, 'read');
    newApiRefusal = error;
  }
  try {
    return await identifyLegacy(credentials, deps);
  } catch (legacyError) {
    const legacy = toVenueError(legacyError, 'read');
    if (legacy.kind !== 'auth') throw legacy;
    // Refused by the legacy API: the new API's answer decides, unless it was no answer (unreachable, failing) or
    // only the refusal any unknown token gets (401).
    const newApi = toVenueError(newApiRefusal, 'read');
    if (newApi.kind === 'unavailable') throw newApi;
    if (newApiRefusal instanceof DerivRestError && newApiRefusal.status !== 401) throw newApi;
    // Refused by both, with a legacy app ID or none: say what a personal access token would need.
    throw new VenueError(
      'deriv',
      'auth',
      `${legacy.message}. A personal access token needs the app ID of the app it was made for (letters and digits); the new API does not take legacy app IDs${appId ? ` such as ${appId}` : ''}.`,
    );
  }
}

async function listAccounts(credentials: VenueAccount['credentials'], deps: SessionDeps): Promise<DerivAccountInfo[]> {
  try {
    return await deps.rest.accounts(restCredentials(credentials));
  } catch (error) {
    throw toVenueError(error, 'read');
  }
}

function identifyNew(credentials: VenueAccount['credentials'], accounts: DerivAccountInfo[]): Identified {
  const chosenId = credentials.derivAccountId ?? '';
  const base = { api: 'new' as const, accounts };
  if (chosenId) {
    const account = accounts.find((a) => a.accountId === chosenId);
    if (!account)
      return {
        ...base,
        account: null,
        problem: `Deriv no longer lists the account ${chosenId} for this token: choose the account to trade in Settings`,
      };
    if (account.status === 'inactive')
      return { ...base, account: null, problem: `Deriv lists the account ${chosenId} as inactive: choose another` };
    return { ...base, account, problem: null };
  }
  const [only] = accounts;
  if (accounts.length === 1 && only) {
    if (only.status === 'inactive')
      return {
        ...base,
        account: null,
        problem: `Deriv lists this token's only account, ${only.accountId}, as inactive`,
      };
    return { ...base, account: only, problem: null, chosen: only.accountId };
  }
  if (accounts.length === 0)
    return { ...base, account: null, problem: 'Deriv lists no Options account for this token' };
  const list = accounts.map((a) => `${a.type} ${a.accountId}`).join(', ');
  return {
    ...base,
    account: null,
    problem: `This token reaches ${accounts.length} Deriv accounts (${list}): choose the one to trade in Settings`,
  };
}

async function identifyLegacy(credentials: VenueAccount['credentials'], deps: SessionDeps): Promise<Identified> {
  const client = new DerivClient({
    url: deps.legacyUrl,
    appId: credentials.derivAppId || deps.defaultAppId,
    token: credentials.derivToken,
    onAuthorize: checkScopes,
    backoff: deps.backoff,
    pingIntervalMs: deps.pingIntervalMs,
    requestTimeoutMs: deps.requestTimeoutMs,
  });
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    throw toVenueError(error, 'read');
  }
  const auth = client.authorized ?? {};
  const account: DerivAccountInfo = {
    accountId: String(auth['loginid'] ?? ''),
    type: Number(auth['is_virtual']) === 1 ? 'demo' : 'real',
    currency: String(auth['currency'] ?? ''),
    balance: Number(auth['balance'] ?? 0),
    status: 'active',
  };
  return { api: 'legacy', accounts: [account], account, problem: null, legacy: client };
}

/** The trading connection for an identified account; throws the reason when there is no account to trade. */
export async function connect(
  identified: Identified,
  credentials: VenueAccount['credentials'],
  deps: SessionDeps,
): Promise<DerivSession> {
  const account = identified.account;
  if (!account || identified.problem) {
    await identified.legacy?.close();
    throw new VenueError('deriv', 'auth', identified.problem ?? 'No Deriv account to trade');
  }
  if (identified.api === 'legacy' && identified.legacy) {
    const scopes = (identified.legacy.authorized?.['scopes'] as string[] | undefined) ?? [];
    return { api: 'legacy', client: identified.legacy, account, symbolField: 'symbol', scopes };
  }
  const rest = restCredentials(credentials);
  const client = new DerivClient({
    connectUrl: () => deps.rest.otpUrl(rest, account.accountId),
    isRefusal: (error) => toVenueError(error, 'read').kind === 'auth',
    ...NEW_API_SOCKET_LIMITS,
    backoff: deps.backoff,
    pingIntervalMs: deps.pingIntervalMs,
    requestTimeoutMs: deps.requestTimeoutMs,
  });
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    throw toVenueError(error, 'read');
  }
  return { api: 'new', client, account, symbolField: 'underlying_symbol', scopes: [] };
}

function checkScopes(authorize: Json): void {
  const scopes = (authorize['scopes'] as string[] | undefined) ?? [];
  const forbidden = scopes.filter((s) => FORBIDDEN_SCOPES.includes(s));
  if (forbidden.length > 0) {
    throw new VenueError(
      'deriv',
      'auth',
      `This Deriv token has the ${forbidden.join(' and ')} scope; trading needs only Read and Trade. Create a token with just those two.`,
    );
  }
  if (!scopes.includes('trade') || !scopes.includes('read')) {
    throw new VenueError('deriv', 'auth', 'This Deriv token lacks the Read and Trade scopes that trading needs.');
  }
}
