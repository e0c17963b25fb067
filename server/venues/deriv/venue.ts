// Deriv multipliers per user account: a 'buy' leg is MULTUP, a 'sell' leg MULTDOWN, stake = notional / multiplier.
// Deriv has no client order ids, so this connector keeps clientOrderId → contract itself, sends the id as the buy's
// passthrough, and on an unknown outcome finds the contract in the account statement before assuming anything.
import Decimal from 'decimal.js';
import { Observable, shareReplay } from 'rxjs';
import type { Currency, SymbolId } from '../../../contract/domain';
import type { BackoffOptions } from '../backoff';
import { InFlight } from '../inflight';
import { VenueError, type CloseOrder, type LegFill, type LegOrder, type Quote, type Venue, type VenueAccount } from '../types';
import { DerivClient, type Json } from './client';
import { toVenueError } from './errors';
import { DERIV_SYMBOLS } from './symbols';

export interface DerivVenueOptions {
  /** e.g. wss://ws.derivws.com/websockets/v3 */
  url: string;
  /** App id for the public quote connection and for accounts that did not save their own. */
  appId: string;
  /** Low on purpose: the stop-out sits near an adverse move of 1/multiplier. */
  multiplier?: number;
  backoff?: BackoffOptions;
  pingIntervalMs?: number;
  requestTimeoutMs?: number;
}

/** One update of an open multiplier contract, decimals as strings. */
export interface ContractUpdate {
  contractId: string;
  /** What selling now would pay, USD. */
  bidPrice: string;
  profit: string;
  currentSpot: string;
  isSold: boolean;
  status: string;
}

const FORBIDDEN_SCOPES = ['payments', 'admin'];

interface OpenAttempt {
  underlying: string;
  contractType: 'MULTUP' | 'MULTDOWN';
  stake: Decimal;
  sentAt: number;
}

interface AccountState {
  token: string;
  appId: string;
  client: DerivClient;
  /** clientOrderId → contract id of opening orders this process placed or found. */
  opened: Map<string, number>;
  /** clientOrderId → contract id of closing orders. */
  closed: Map<string, number>;
  /** Opening orders sent without a definite answer, by client order id. */
  attempts: Map<string, OpenAttempt>;
}

export interface OpenContract {
  contract_id: number;
  contract_type: string;
  underlying: string;
  buy_price: number;
  commission?: number;
  entry_spot?: number;
  current_spot?: number;
  sell_spot?: number;
  exit_tick?: number;
  sell_price?: number;
  sell_time?: number;
  purchase_time?: number;
  date_start?: number;
  multiplier?: number;
  is_sold: number;
}

export class DerivVenue implements Venue {
  private readonly inflight = new InFlight<LegFill>();
  readonly id = 'deriv' as const;
  private readonly multiplier: number;
  private publicClient: DerivClient | null = null;
  private readonly accounts = new Map<string, AccountState>();
  private readonly quoteStreams = new Map<SymbolId, Observable<Quote>>();

  constructor(private readonly options: DerivVenueOptions) {
    this.multiplier = options.multiplier ?? 10;
  }

  quotes(symbol: SymbolId): Observable<Quote> {
    let stream = this.quoteStreams.get(symbol);
    if (!stream) {
      const underlying = DERIV_SYMBOLS[symbol];
      stream = new Observable<Quote>((subscriber) => {
        const subscription = this.publicConnection().subscribe({ ticks: underlying }, (message) => {
          const tick = message['tick'] as { bid?: number; ask?: number; epoch?: number } | undefined;
          if (tick?.bid === undefined || tick.ask === undefined) return;
          subscriber.next({ venue: 'deriv', symbol, bid: tick.bid, ask: tick.ask, ts: (tick.epoch ?? Date.now() / 1000) * 1000 });
        });
        return () => subscription.unsubscribe();
      }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
      this.quoteStreams.set(symbol, stream);
    }
    return stream;
  }

  async takerFeeRate(_account: VenueAccount): Promise<string> {
    // Deriv charges a commission per contract, stated in each proposal and reported as the fill's fee.
    return '0';
  }

  async balances(account: VenueAccount): Promise<Record<Currency, string>> {
    const answer = await this.call(account, { balance: 1 }, 'read');
    const balance = (answer['balance'] as { balance: number }).balance;
    return { USDT: new Decimal(balance).toFixed(), BTC: '0', ETH: '0' };
  }

  openLeg(account: VenueAccount, order: LegOrder): Promise<LegFill> {
    return this.inflight.run(`${account.userId}|${order.clientOrderId}`, () => this.open(account, order));
  }

  closeLeg(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    return this.inflight.run(`${account.userId}|${order.clientOrderId}`, () => this.closePosition(account, order));
  }

  private async open(account: VenueAccount, order: LegOrder): Promise<LegFill> {
    const state = await this.account(account);
    const known = await this.findOrder(account, order.symbol, order.clientOrderId);
    if (known) return known;
    const notional = new Decimal(order.notional);
    if (!notional.isFinite() || notional.lte(0)) throw new VenueError('deriv', 'rejected', `Invalid notional: ${order.notional}`);
    const stake = notional.dividedBy(this.multiplier).toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const contractType = order.side === 'buy' ? 'MULTUP' : 'MULTDOWN';
    const underlying = DERIV_SYMBOLS[order.symbol];
    const currency = String(state.client.authorized?.['currency'] ?? 'USD');
    const proposalAnswer = await this.call(
      account,
      { proposal: 1, amount: stake.toNumber(), basis: 'stake', contract_type: contractType, currency, multiplier: this.multiplier, symbol: underlying },
      'read',
    );
    const proposal = proposalAnswer['proposal'] as { id: string; ask_price: number; spot?: number; commission?: number };
    state.attempts.set(order.clientOrderId, { underlying, contractType, stake, sentAt: Math.floor(Date.now() / 1000) });
    let bought: { contract_id: number; buy_price: number; purchase_time?: number };
    try {
      const answer = await this.call(account, { buy: proposal.id, price: proposal.ask_price, passthrough: { client_order_id: order.clientOrderId } }, 'order');
      bought = answer['buy'] as typeof bought;
    } catch (error) {
      const mapped = toVenueError(error, 'order');
      if (mapped.kind !== 'unknown-outcome') {
        state.attempts.delete(order.clientOrderId);
        throw mapped;
      }
      const found = await this.findOrder(account, order.symbol, order.clientOrderId).catch(() => {
        throw mapped;
      });
      if (found) return found;
      state.attempts.delete(order.clientOrderId);
      throw new VenueError('deriv', 'unavailable', `Deriv failed while buying ${order.clientOrderId}; no contract was bought (${mapped.message})`);
    }
    state.attempts.delete(order.clientOrderId);
    remember(state.opened, order.clientOrderId, bought.contract_id);
    // The contract is bought: from here on nothing may turn the fill into an error. Its own record has the exact
    // entry spot; if that read fails, the proposal's spot and commission describe the same purchase.
    const contract = await this.contract(account, bought.contract_id).catch(() => null);
    return this.openingFill(
      account,
      order.clientOrderId,
      contract ?? {
        contract_id: bought.contract_id,
        contract_type: contractType,
        underlying,
        buy_price: bought.buy_price,
        commission: proposal.commission,
        entry_spot: proposal.spot,
        purchase_time: bought.purchase_time,
        multiplier: this.multiplier,
        is_sold: 0,
      },
    );
  }

  private async closePosition(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    const state = await this.account(account);
    const contractId = Number(order.venueOrderId);
    if (!order.venueOrderId || !Number.isInteger(contractId)) throw new VenueError('deriv', 'rejected', `Cannot close without a Deriv contract id (got ${order.venueOrderId ?? 'none'})`);
    const current = await this.contract(account, contractId);
    if (current.is_sold) return this.closingFill(state, order, current);
    let soldFor: number;
    try {
      const answer = await this.call(account, { sell: contractId, price: 0 }, 'order');
      soldFor = (answer['sell'] as { sold_for: number }).sold_for;
    } catch (error) {
      const mapped = toVenueError(error, 'order');
      // Sold meanwhile (by a retry, a stop-out or the user): the contract says so, and that is the close.
      const after = await this.contract(account, contractId).catch(() => {
        throw mapped;
      });
      if (after.is_sold) return this.closingFill(state, order, after);
      throw mapped.kind === 'unknown-outcome'
        ? new VenueError('deriv', 'unavailable', `Deriv failed while selling contract ${contractId}; it is still open (${mapped.message})`)
        : mapped;
    }
    const after = await this.contract(account, contractId).catch(() => null);
    if (after?.is_sold) return this.closingFill(state, order, after);
    // Sold, but its record could not be read: the price it sold for implies the exit spot.
    return this.closingFill(state, order, { ...current, is_sold: 1, sell_price: soldFor, sell_spot: impliedExitSpot(current, soldFor), sell_time: Date.now() / 1000 });
  }

  async findOrder(account: VenueAccount, _symbol: SymbolId, clientOrderId: string): Promise<LegFill | null> {
    const state = await this.account(account);
    const closedId = state.closed.get(clientOrderId);
    if (closedId !== undefined) {
      const contract = await this.contract(account, closedId);
      return this.closingFill(state, { clientOrderId, quantity: this.quantityOf(contract).toFixed() }, contract);
    }
    let contractId = state.opened.get(clientOrderId);
    const attempt = state.attempts.get(clientOrderId);
    if (contractId === undefined && attempt) contractId = (await this.reconcile(account, state, attempt)) ?? undefined;
    if (contractId === undefined) return null;
    state.attempts.delete(clientOrderId);
    remember(state.opened, clientOrderId, contractId);
    return this.openingFill(account, clientOrderId, await this.contract(account, contractId));
  }

  /**
   * Live updates of one contract from proposal_open_contract, e.g. to notice a stop-out; completes once the
   * contract is sold. Unsubscribing forgets the stream at Deriv.
   */
  watchContract(account: VenueAccount, contractId: string): Observable<ContractUpdate> {
    return new Observable<ContractUpdate>((subscriber) => {
      let stop: (() => void) | null = null;
      let done = false;
      this.account(account).then(
        (state) => {
          if (done) return;
          const subscription = state.client.subscribe(
            { proposal_open_contract: 1, contract_id: Number(contractId) },
            (message) => {
              const poc = message['proposal_open_contract'] as (OpenContract & { bid_price?: number; profit?: number; status?: string }) | undefined;
              if (!poc?.contract_id) return;
              subscriber.next({
                contractId: String(poc.contract_id),
                bidPrice: new Decimal(poc.bid_price ?? 0).toFixed(),
                profit: new Decimal(poc.profit ?? 0).toFixed(),
                currentSpot: new Decimal(poc.current_spot ?? 0).toFixed(),
                isSold: Boolean(poc.is_sold),
                status: poc.status ?? (poc.is_sold ? 'sold' : 'open'),
              });
              if (poc.is_sold) subscriber.complete();
            },
            (error) => subscriber.error(toVenueError(error, 'read')),
          );
          stop = () => subscription.unsubscribe();
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        done = true;
        stop?.();
      };
    });
  }

  async testConnection(account: VenueAccount): Promise<string> {
    const state = await this.account(account);
    const auth = state.client.authorized ?? {};
    const scopes = (auth['scopes'] as string[] | undefined) ?? [];
    return `Deriv connected: account ${String(auth['loginid'])} (${String(auth['currency'])}), balance ${String(auth['balance'])}, scopes ${scopes.join(', ')}`;
  }

  async close(): Promise<void> {
    const clients = [this.publicClient, ...[...this.accounts.values()].map((a) => a.client)];
    this.publicClient = null;
    this.accounts.clear();
    await Promise.all(clients.map((c) => c?.close()));
  }

  /**
   * Finds the contract an unanswered buy may have bought: a buy in the statement since the attempt, on the same
   * underlying, type and stake, that no other client order id has claimed.
   */
  private async reconcile(account: VenueAccount, state: AccountState, attempt: OpenAttempt): Promise<number | null> {
    const answer = await this.call(account, { statement: 1, description: 1, limit: 50, date_from: attempt.sentAt - 5 }, 'read');
    const transactions = ((answer['statement'] as { transactions?: { action_type: string; contract_id: number }[] }).transactions ?? []).filter(
      (t) => t.action_type === 'buy',
    );
    const claimed = new Set(state.opened.values());
    for (const transaction of transactions) {
      if (claimed.has(transaction.contract_id)) continue;
      const contract = await this.contract(account, transaction.contract_id);
      if (contract.underlying === attempt.underlying && contract.contract_type === attempt.contractType && new Decimal(contract.buy_price).eq(attempt.stake)) {
        return contract.contract_id;
      }
    }
    return null;
  }

  private quantityOf(contract: OpenContract): Decimal {
    const entry = new Decimal(contract.entry_spot ?? contract.current_spot ?? 0);
    if (entry.lte(0)) return new Decimal(0);
    return new Decimal(contract.buy_price).times(contract.multiplier ?? this.multiplier).dividedBy(entry).toDecimalPlaces(8, Decimal.ROUND_DOWN);
  }

  private openingFill(_account: VenueAccount, clientOrderId: string, contract: OpenContract): LegFill {
    return {
      clientOrderId,
      venueOrderId: String(contract.contract_id),
      price: new Decimal(contract.entry_spot ?? contract.current_spot ?? 0).toFixed(),
      quantity: this.quantityOf(contract).toFixed(),
      fee: new Decimal(contract.commission ?? 0).toFixed(),
      at: (contract.purchase_time ?? contract.date_start ?? Date.now() / 1000) * 1000,
    };
  }

  /** The close of a multiplier: exit at the sell spot; the commission was charged once, at the open. */
  private closingFill(state: AccountState, order: Pick<CloseOrder, 'clientOrderId' | 'quantity'>, contract: OpenContract): LegFill {
    remember(state.closed, order.clientOrderId, contract.contract_id);
    return {
      clientOrderId: order.clientOrderId,
      venueOrderId: String(contract.contract_id),
      price: new Decimal(contract.sell_spot ?? contract.exit_tick ?? contract.current_spot ?? 0).toFixed(),
      quantity: order.quantity,
      fee: '0',
      at: (contract.sell_time ?? Date.now() / 1000) * 1000,
    };
  }

  private async contract(account: VenueAccount, contractId: number): Promise<OpenContract> {
    const answer = await this.call(account, { proposal_open_contract: 1, contract_id: contractId }, 'read');
    return answer['proposal_open_contract'] as OpenContract;
  }

  private async call(account: VenueAccount, request: Json, phase: 'order' | 'read'): Promise<Json> {
    const state = await this.account(account);
    try {
      return await state.client.request(request);
    } catch (error) {
      throw toVenueError(error, phase);
    }
  }

  /** The account's own authorized connection, refusing tokens that can move money out. */
  private async account(account: VenueAccount): Promise<AccountState> {
    const token = account.credentials.derivToken;
    if (!token) throw new VenueError('deriv', 'auth', 'Deriv API token is not set');
    const appId = account.credentials.derivAppId || this.options.appId;
    let state = this.accounts.get(account.userId);
    if (state && (state.token !== token || state.appId !== appId)) {
      void state.client.close();
      state = undefined;
    }
    if (!state) {
      const client = new DerivClient({
        url: this.options.url,
        appId,
        token,
        onAuthorize: checkScopes,
        backoff: this.options.backoff,
        pingIntervalMs: this.options.pingIntervalMs,
        requestTimeoutMs: this.options.requestTimeoutMs,
      });
      state = { token, appId, client, opened: new Map(), closed: new Map(), attempts: new Map() };
      this.accounts.set(account.userId, state);
    }
    try {
      await state.client.connect();
    } catch (error) {
      // A refused token is forgotten, so that a corrected one gets a fresh connection.
      if (this.accounts.get(account.userId) === state && !(toVenueError(error, 'read').kind === 'unavailable')) this.accounts.delete(account.userId);
      throw toVenueError(error, 'read');
    }
    return state;
  }

  private publicConnection(): DerivClient {
    this.publicClient ??= new DerivClient({
      url: this.options.url,
      appId: this.options.appId,
      backoff: this.options.backoff,
      pingIntervalMs: this.options.pingIntervalMs,
      requestTimeoutMs: this.options.requestTimeoutMs,
    });
    return this.publicClient;
  }
}

/** How many client order ids per account are remembered; older ones are found again through the contract itself. */
const REMEMBERED_ORDERS = 10_000;

/** Map insertion order is age: re-inserting refreshes an entry, and the oldest leaves once the map is full. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED_ORDERS) map.delete(map.keys().next().value as K);
}

/** Inverts Deriv's multiplier value: sold_for = stake + stake × multiplier × direction × (exit/entry − 1) − commission. */
export function impliedExitSpot(contract: OpenContract, soldFor: number): number {
  const stake = new Decimal(contract.buy_price);
  const exposure = stake.times(contract.multiplier ?? 1);
  const entry = new Decimal(contract.entry_spot ?? contract.current_spot ?? 0);
  if (exposure.lte(0) || entry.lte(0)) return entry.toNumber();
  const direction = contract.contract_type === 'MULTUP' ? 1 : -1;
  const move = new Decimal(soldFor).minus(stake).plus(contract.commission ?? 0).dividedBy(exposure).times(direction);
  return entry.times(move.plus(1)).toDecimalPlaces(8).toNumber();
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
