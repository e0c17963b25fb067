// Deriv multipliers per user account: a 'buy' leg is MULTUP, a 'sell' leg MULTDOWN, at the lowest multiplier Deriv
// offers for the symbol (contracts_for), stake = notional / multiplier within the stake bounds of its proposals.
// Deriv has no client order ids: each buy is written down before it is sent (the order journal) and its contract id
// as soon as Deriv answers, so that after a crash the contract is found by id, or by that attempt in the account's
// portfolio and statement. Open contracts are followed (proposal_open_contract): a stop-out reaches the engine at once.
import Decimal from 'decimal.js';
import { filter, map, Observable, shareReplay, take } from 'rxjs';
import type { Currency, SymbolId } from '../../../contract/domain';
import type { BackoffOptions } from '../backoff';
import { InFlight } from '../inflight';
import { Kept } from '../kept';
import {
  VenueError,
  type CloseOrder,
  type KnownOrder,
  type LegFill,
  type LegOrder,
  type PositionClosed,
  type Quote,
  type TradeRules,
  type Venue,
  type VenueAccount,
  type VenuePosition,
} from '../types';
import { DerivClient, type Json } from './client';
import {
  impliedExitSpot,
  placementOf,
  quantityOf,
  saleReason,
  type DerivPlacement,
  type OpenContract,
} from './contracts';
import { toVenueError } from './errors';
import { parseOffer, parseStakeTerms, type ContractType, type Offer, type StakeTerms } from './offers';
import { findBought, openContracts, type AccountCalls } from './records';
import { DERIV_SYMBOLS } from './symbols';

export { impliedExitSpot, type OpenContract } from './contracts';

export interface DerivVenueOptions {
  /** e.g. wss://ws.derivws.com/websockets/v3 */
  url: string;
  /** App id for the public quote connection and for accounts that did not save their own (DERIV_APP_ID). */
  appId: string;
  backoff?: BackoffOptions;
  pingIntervalMs?: number;
  requestTimeoutMs?: number;
  /** How long the multipliers, stake bounds and commission Deriv states are reused before they are asked again. */
  offerCacheMs?: number;
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
const SYMBOL_OF: Record<string, SymbolId> = Object.fromEntries(
  Object.entries(DERIV_SYMBOLS).map(([symbol, underlying]) => [underlying, symbol as SymbolId]),
);

interface AccountState {
  token: string;
  appId: string;
  client: DerivClient;
  /** clientOrderId → contract id of opening orders this process placed or found. */
  opened: Map<string, number>;
  /** clientOrderId → contract id of closing orders. */
  closed: Map<string, number>;
  /** Opening orders sent without a definite answer, by client order id. */
  attempts: Map<string, DerivPlacement>;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export class DerivVenue implements Venue {
  private readonly inflight = new InFlight<LegFill>();
  readonly id = 'deriv' as const;
  private publicClient: DerivClient | null = null;
  private readonly accounts = new Map<string, AccountState>();
  private readonly quoteStreams = new Map<SymbolId, Observable<Quote>>();
  private readonly offers: Kept<Offer>;
  private readonly terms: Kept<StakeTerms>;

  constructor(private readonly options: DerivVenueOptions) {
    this.offers = new Kept(options.offerCacheMs ?? 10 * 60_000);
    this.terms = new Kept(options.offerCacheMs ?? 10 * 60_000);
  }

  quotes(symbol: SymbolId): Observable<Quote> {
    let stream = this.quoteStreams.get(symbol);
    if (!stream) {
      const underlying = DERIV_SYMBOLS[symbol];
      stream = new Observable<Quote>((subscriber) => {
        const subscription = this.publicConnection().subscribe({ ticks: underlying }, (message) => {
          const tick = message['tick'] as { bid?: number; ask?: number; epoch?: number } | undefined;
          if (tick?.bid === undefined || tick.ask === undefined) return;
          subscriber.next({ venue: 'deriv', symbol, bid: tick.bid, ask: tick.ask, ts: tickTime(tick.epoch) });
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

  /** The lowest multiplier offered for the symbol, the stake bounds and the commission of its proposals. */
  async tradeRules(account: VenueAccount, symbol: SymbolId): Promise<TradeRules> {
    const state = await this.account(account);
    const currency = this.currencyOf(state);
    const offer = await this.offer(symbol);
    const multipliers = [offer.lowest.MULTUP, offer.lowest.MULTDOWN].filter((m): m is number => m !== null);
    const multiplier = multipliers.length > 0 ? Math.max(...multipliers) : null;
    const terms =
      multiplier === null ? null : await this.stakeTerms(account, currency, symbol, multiplier, offer.defaultStake);
    return {
      currency,
      minNotional: null,
      maxNotional: null,
      stepSize: null,
      minQuantity: null,
      multiplier,
      minStake: terms?.minStake ?? null,
      maxStake: terms?.maxStake ?? null,
      feeRate: terms?.commissionRate ?? '0',
    };
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
    if (!notional.isFinite() || notional.lte(0))
      throw new VenueError('deriv', 'rejected', `Invalid notional: ${order.notional}`);
    const contractType: ContractType = order.side === 'buy' ? 'MULTUP' : 'MULTDOWN';
    const multiplier = (await this.offer(order.symbol)).lowest[contractType];
    if (multiplier === null)
      throw new VenueError('deriv', 'rejected', `Deriv offers no ${contractType} multiplier for ${order.symbol}`);
    const stake = notional.dividedBy(multiplier).toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const underlying = DERIV_SYMBOLS[order.symbol];
    const currency = this.currencyOf(state);
    let proposalAnswer: Json;
    try {
      proposalAnswer = await this.call(
        account,
        {
          proposal: 1,
          amount: stake.toNumber(),
          basis: 'stake',
          contract_type: contractType,
          currency,
          multiplier,
          symbol: underlying,
        },
        'read',
      );
    } catch (error) {
      // The offer changed under us: read it again before the next order.
      if (error instanceof VenueError && /multiplier/i.test(error.message)) this.offers.forget(order.symbol);
      throw error;
    }
    const proposal = proposalAnswer['proposal'] as Json & {
      id: string;
      ask_price: number;
      spot?: number;
      commission?: number;
    };
    this.terms.set(
      `${currency}|${order.symbol}|${multiplier}`,
      parseStakeTerms(proposal, stake.toNumber(), multiplier),
    );
    if (order.protection && proposal.spot !== undefined) refuseMovedSpot(order.side, proposal.spot, order.protection);
    const placement: DerivPlacement = {
      contractType,
      underlying,
      stake: stake.toFixed(2),
      multiplier,
      at: nowSeconds(),
    };
    // Written down before the buy goes out: if it cannot be, nothing is bought.
    if (order.journal) {
      await order.journal({ kind: 'attempt', placement: { ...placement } }).catch((error: unknown) => {
        throw new VenueError(
          'deriv',
          'unavailable',
          `the order could not be recorded before buying, so nothing was bought: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
    state.attempts.set(order.clientOrderId, placement);
    let bought: { contract_id: number; buy_price: number; purchase_time?: number };
    try {
      const answer = await this.call(
        account,
        { buy: proposal.id, price: proposal.ask_price, passthrough: { client_order_id: order.clientOrderId } },
        'order',
      );
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
      throw new VenueError(
        'deriv',
        'unavailable',
        `Deriv failed while buying ${order.clientOrderId}; no contract was bought (${mapped.message})`,
      );
    }
    state.attempts.delete(order.clientOrderId);
    remember(state.opened, order.clientOrderId, bought.contract_id);
    // The contract is bought: from here on nothing may turn the fill into an error. Its id is written down first.
    await order.journal?.({ kind: 'placed', venueOrderId: String(bought.contract_id) }).catch(() => undefined);
    // Its own record has the exact entry spot; if that read fails, the proposal's spot and commission describe it.
    const contract = await this.contract(account, bought.contract_id).catch(() => null);
    return this.openingFill(
      order.clientOrderId,
      contract ?? {
        contract_id: bought.contract_id,
        contract_type: contractType,
        underlying,
        buy_price: bought.buy_price,
        commission: proposal.commission,
        entry_spot: proposal.spot,
        purchase_time: bought.purchase_time,
        multiplier,
        is_sold: 0,
      },
    );
  }

  private async closePosition(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    const state = await this.account(account);
    const contractId = Number(order.venueOrderId);
    if (!order.venueOrderId || !Number.isInteger(contractId))
      throw new VenueError(
        'deriv',
        'rejected',
        `Cannot close without a Deriv contract id (got ${order.venueOrderId ?? 'none'})`,
      );
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
        ? new VenueError(
            'deriv',
            'unavailable',
            `Deriv failed while selling contract ${contractId}; it is still open (${mapped.message})`,
          )
        : mapped;
    }
    const after = await this.contract(account, contractId).catch(() => null);
    if (after?.is_sold) return this.closingFill(state, order, after);
    // Sold, but its record could not be read: the price it sold for implies the exit spot.
    return this.closingFill(state, order, {
      ...current,
      is_sold: 1,
      sell_price: soldFor,
      sell_spot: impliedExitSpot(current, soldFor),
      sell_time: Date.now() / 1000,
    });
  }

  /**
   * An order by client order id: first what this process remembers; then, after a restart, by the contract id the
   * engine recorded, or else by the attempt it wrote down before the buy, matched in the account's portfolio and
   * statement (contracts.ts, matchPlacement).
   */
  async findOrder(
    account: VenueAccount,
    _symbol: SymbolId,
    clientOrderId: string,
    known?: KnownOrder,
  ): Promise<LegFill | null> {
    const state = await this.account(account);
    const closedId = state.closed.get(clientOrderId);
    if (closedId !== undefined)
      return this.closingFill(state, { clientOrderId, quantity: null }, await this.contract(account, closedId));
    if (known?.role === 'close') {
      if (!known.venueOrderId) return null;
      const contract = await this.contract(account, Number(known.venueOrderId));
      return contract.is_sold ? this.closingFill(state, { clientOrderId, quantity: null }, contract) : null;
    }
    let contractId = state.opened.get(clientOrderId);
    const attempt = state.attempts.get(clientOrderId);
    if (contractId === undefined && known?.venueOrderId) contractId = Number(known.venueOrderId);
    const placement = attempt ?? (known?.placement ? placementOf(known.placement) : null);
    if (contractId === undefined && placement) {
      const claimed = new Set([...(known?.claimed ?? []), ...[...state.opened.values()].map(String)]);
      contractId = (await findBought(this.calls(account), placement, claimed))?.contractId;
    }
    if (contractId === undefined) return null;
    state.attempts.delete(clientOrderId);
    remember(state.opened, clientOrderId, contractId);
    return this.openingFill(clientOrderId, await this.contract(account, contractId));
  }

  /** Emits once when Deriv sells the contract (a stop-out, or a sale from elsewhere), with the fill of that sale. */
  watchPosition(
    account: VenueAccount,
    _symbol: SymbolId,
    venueOrderId: string,
    quantity: string,
  ): Observable<PositionClosed> {
    return this.contractStream(account, venueOrderId).pipe(
      filter((contract) => Boolean(contract.is_sold)),
      take(1),
      map((contract) => ({
        reason: saleReason(contract),
        fill: {
          clientOrderId: '',
          venueOrderId: String(contract.contract_id),
          price: new Decimal(contract.sell_spot ?? contract.exit_tick ?? contract.current_spot ?? 0).toFixed(),
          quantity,
          fee: '0',
          at: (contract.sell_time ?? Date.now() / 1000) * 1000,
        },
      })),
    );
  }

  /** Live updates of one contract from proposal_open_contract; completes once the contract is sold. */
  watchContract(account: VenueAccount, contractId: string): Observable<ContractUpdate> {
    return this.contractStream(account, contractId).pipe(
      map((poc) => ({
        contractId: String(poc.contract_id),
        bidPrice: new Decimal(poc.bid_price ?? 0).toFixed(),
        profit: new Decimal(poc.profit ?? 0).toFixed(),
        currentSpot: new Decimal(poc.current_spot ?? 0).toFixed(),
        isSold: Boolean(poc.is_sold),
        status: poc.status ?? (poc.is_sold ? 'sold' : 'open'),
      })),
    );
  }

  /** The account's open contracts (portfolio), for finding what no trade tracks after a restart. */
  async openPositions(account: VenueAccount): Promise<VenuePosition[]> {
    return (await openContracts(this.calls(account))).map((c) => ({
      venueOrderId: String(c.contractId),
      symbol: SYMBOL_OF[c.underlying] ?? null,
      description: `${c.contractType} ${c.underlying}, stake ${c.buyPrice}`,
      openedAt: c.purchaseTime * 1000,
    }));
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

  private contractStream(account: VenueAccount, contractId: string): Observable<OpenContract> {
    return new Observable<OpenContract>((subscriber) => {
      let stop: (() => void) | null = null;
      let done = false;
      this.account(account).then(
        (state) => {
          if (done) return;
          const subscription = state.client.subscribe(
            { proposal_open_contract: 1, contract_id: Number(contractId) },
            (message) => {
              const poc = message['proposal_open_contract'] as OpenContract | undefined;
              if (!poc?.contract_id) return;
              subscriber.next(poc);
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

  private offer(symbol: SymbolId): Promise<Offer> {
    return this.offers.get(symbol, async () => {
      try {
        return parseOffer(await this.publicConnection().request({ contracts_for: DERIV_SYMBOLS[symbol] }));
      } catch (error) {
        throw toVenueError(error, 'read');
      }
    });
  }

  /** Stake bounds and commission for a multiplier, from a proposal (a probe at Deriv's default stake when none yet). */
  private stakeTerms(
    account: VenueAccount,
    currency: string,
    symbol: SymbolId,
    multiplier: number,
    defaultStake: number | null,
  ): Promise<StakeTerms> {
    return this.terms.get(`${currency}|${symbol}|${multiplier}`, async () => {
      const stake = defaultStake ?? 10;
      const answer = await this.call(
        account,
        {
          proposal: 1,
          amount: stake,
          basis: 'stake',
          contract_type: 'MULTUP',
          currency,
          multiplier,
          symbol: DERIV_SYMBOLS[symbol],
        },
        'read',
      );
      return parseStakeTerms(answer['proposal'] as Json, stake, multiplier);
    });
  }

  private currencyOf(state: AccountState): string {
    return String(state.client.authorized?.['currency'] ?? 'USD');
  }

  private openingFill(clientOrderId: string, contract: OpenContract): LegFill {
    return {
      clientOrderId,
      venueOrderId: String(contract.contract_id),
      price: new Decimal(contract.entry_spot ?? contract.current_spot ?? 0).toFixed(),
      quantity: quantityOf(contract, 1).toFixed(),
      fee: new Decimal(contract.commission ?? 0).toFixed(),
      at: (contract.purchase_time ?? contract.date_start ?? Date.now() / 1000) * 1000,
    };
  }

  /** The close of a multiplier: exit at the sell spot; the commission was charged once, at the open. */
  private closingFill(
    state: AccountState,
    order: { clientOrderId: string; quantity: string | null },
    contract: OpenContract,
  ): LegFill {
    remember(state.closed, order.clientOrderId, contract.contract_id);
    return {
      clientOrderId: order.clientOrderId,
      venueOrderId: String(contract.contract_id),
      price: new Decimal(contract.sell_spot ?? contract.exit_tick ?? contract.current_spot ?? 0).toFixed(),
      quantity: order.quantity ?? quantityOf(contract, 1).toFixed(),
      fee: '0',
      at: (contract.sell_time ?? Date.now() / 1000) * 1000,
    };
  }

  /** This account's calls, for the lookups of records.ts. */
  private calls(account: VenueAccount): AccountCalls {
    return {
      read: (request) => this.call(account, request, 'read'),
      contract: (contractId) => this.contract(account, contractId),
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
      if (this.accounts.get(account.userId) === state && !(toVenueError(error, 'read').kind === 'unavailable'))
        this.accounts.delete(account.userId);
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

/**
 * A Deriv tick's time: its epoch has whole seconds, so the tick happened within the second after it; its arrival,
 * held inside that second, is the closest estimate (and never later than the venue says).
 */
export function tickTime(epoch: number | undefined, arrival: number = Date.now()): number {
  if (epoch === undefined) return arrival;
  return Math.max(epoch * 1000, Math.min(arrival, epoch * 1000 + 999));
}

/** Price protection on Deriv: the proposal's spot may not be worse than the decision's quote by more than allowed. */
function refuseMovedSpot(side: 'buy' | 'sell', spot: number, protection: NonNullable<LegOrder['protection']>): void {
  const decided = new Decimal(protection.price);
  const limit = decided.times(side === 'buy' ? 1 + protection.maxSlippage : 1 - protection.maxSlippage);
  if (side === 'buy' ? new Decimal(spot).gt(limit) : new Decimal(spot).lt(limit)) {
    throw new VenueError(
      'deriv',
      'rejected',
      `Deriv's price moved: the proposal's spot is ${spot}, the decision's ${decided.toFixed()} (limit ${limit.toDecimalPlaces(8).toFixed()})`,
    );
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
