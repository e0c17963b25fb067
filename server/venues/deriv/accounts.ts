// Each user's Deriv trading connection and the connector's memory of their orders: opened on first use (the API found
// out, new API first, unless it is known), again when the token, the app id, the API found for it or the chosen
// account changed, or when Deriv refused it for good (a revoked token). What Deriv says about the token is written
// down through the account's `remember`, so Settings and the next process know it.
import { createHash } from 'node:crypto';
import { derivStatusLine } from '../../../contract/deriv';
import { VenueError, type VenueAccount } from '../types';
import type { Json } from './client';
import type { DerivPlacement } from './contracts';
import { toVenueError, type CallPhase } from './errors';
import { connect, factsOf, identify, type DerivSession, type Identified, type SessionDeps } from './session';
import { num } from './wire';

export interface AccountState {
  /** Fingerprint of the token and app id the session was opened with. */
  key: string;
  session: Promise<DerivSession> | null;
  /** clientOrderId → contract id of opening orders this process placed or found. */
  opened: Map<string, number>;
  /** clientOrderId → contract id of closing orders. */
  closed: Map<string, number>;
  /** Opening orders sent without a definite answer, by client order id. */
  attempts: Map<string, DerivPlacement>;
}

const fingerprint = (credentials: VenueAccount['credentials']): string =>
  createHash('sha256')
    .update(`${credentials.derivToken ?? ''}\n${credentials.derivAppId ?? ''}`)
    .digest('hex');

/** A request on a session, its failure as a VenueError. */
export async function request(session: DerivSession, message: Json, phase: CallPhase): Promise<Json> {
  try {
    return await session.client.request(message);
  } catch (error) {
    throw toVenueError(error, phase);
  }
}

export class DerivAccounts {
  private readonly states = new Map<string, AccountState>();

  constructor(private readonly deps: SessionDeps) {}

  async session(account: VenueAccount): Promise<{ state: AccountState; session: DerivSession }> {
    const { credentials } = account;
    if (!credentials.derivToken) throw new VenueError('deriv', 'auth', 'No Deriv token is saved');
    const key = fingerprint(credentials);
    for (let attempt = 0; ; attempt += 1) {
      let state = this.states.get(account.userId);
      if (!state || state.key !== key) {
        if (state) this.drop(account.userId, state);
        state = { key, session: null, opened: new Map(), closed: new Map(), attempts: new Map() };
        this.states.set(account.userId, state);
      }
      const current = state;
      if (!current.session) {
        const opening = this.open(account);
        current.session = opening;
        opening.catch(() => {
          if (current.session === opening) current.session = null;
        });
      }
      const session = await current.session;
      const stale =
        session.client.isClosed ||
        (credentials.derivApi !== undefined && credentials.derivApi !== session.api) ||
        (credentials.derivAccountId !== undefined && credentials.derivAccountId !== session.account.accountId);
      if (!stale || attempt > 0) return { state: current, session };
      this.drop(account.userId, current);
    }
  }

  /**
   * Finds out afresh which API the token belongs to (new API first) and which accounts it reaches, checks the
   * trading connection of the account to trade (a fresh one, closed after), and writes down what Deriv said. Several
   * accounts and none chosen is not a failure: the answer says to choose one.
   */
  async test(account: VenueAccount): Promise<string> {
    let identified: Identified = await identify(account.credentials, this.deps, true);
    let scopes: string[] = [];
    if (identified.account && !identified.problem) {
      const session = await connect(identified, account.credentials, this.deps);
      scopes = session.scopes;
      try {
        if (session.api === 'new') identified = withBalance(identified, await request(session, { balance: 1 }, 'read'));
      } finally {
        await session.client.close();
      }
    } else await identified.legacy?.close();
    await account.remember?.(factsOf(identified));
    const line = derivStatusLine({
      api: identified.api,
      accountId: identified.account?.accountId ?? account.credentials.derivAccountId ?? '',
      accounts: identified.accounts,
      checkedAt: null,
    });
    return scopes.length > 0 ? `${line} (scopes ${scopes.join(', ')})` : line;
  }

  async close(): Promise<void> {
    const states = [...this.states.values()];
    this.states.clear();
    await Promise.all(states.map((s) => s.session?.then((session) => session.client.close()).catch(() => undefined)));
  }

  private async open(account: VenueAccount): Promise<DerivSession> {
    const identified = await identify(account.credentials, this.deps, false);
    // Written down even when there is no account to trade yet: Settings then lists the accounts to choose from.
    await account.remember?.(factsOf(identified)).catch(() => undefined);
    return connect(identified, account.credentials, this.deps);
  }

  private drop(userId: string, state: AccountState): void {
    if (this.states.get(userId) === state) this.states.delete(userId);
    void state.session?.then((s) => s.client.close()).catch(() => undefined);
  }
}

/** The account's balance as its own socket tells it, fresher than the listing's. */
function withBalance(identified: Identified, answer: Json): Identified {
  const balance = num((answer['balance'] as Json | undefined)?.['balance']);
  const account = identified.account;
  if (balance === undefined || !account) return identified;
  return {
    ...identified,
    account: { ...account, balance },
    accounts: identified.accounts.map((a) => (a.accountId === account.accountId ? { ...a, balance } : a)),
  };
}
