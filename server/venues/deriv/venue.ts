// Deriv multipliers per user account: a 'buy' leg is MULTUP, a 'sell' leg MULTDOWN, at the lowest multiplier Deriv
// offers for the symbol (contracts_for), stake = notional / multiplier within the stake bounds of its proposals.
// Deriv has no client order ids: each buy is written down before it is sent (the order journal) and its contract id
// as soon as Deriv answers, so that after a crash the contract is found by id, or by that attempt in the account's
// portfolio and statement. Open contracts are followed (proposal_open_contract): a stop-out reaches the engine at once.
// Both of Deriv's APIs behind this one Venue: each user's saved token decides which (session.ts); quotes and the
// offers (contracts_for) come from the new API's public socket, which needs no authentication.
import Decimal from 'decimal.js';
import { filter, map, Observable, take } from 'rxjs';
import type { Currency, SymbolId } from '../../../contract/domain';
import type { BackoffOptions } from '../backoff';
import { InFlight } from '../inflight';
import type { VenueHealthSource } from '../health';
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
import type { Json } from './client';
import { DerivAccounts, request, type AccountState } from './accounts';
import { impliedExitSpot, placementOf, saleReason, type DerivPlacement, type OpenContract } from './contracts';
import { toVenueError, type CallPhase } from './errors';
import { closingFill, exitPrice, openingFill, refuseMovedSpot, remember } from './fills';
import { parseStakeTerms, type ContractType, type StakeTerms } from './offers';
import { findBought, openContracts, type AccountCalls } from './records';
import { DerivPublic } from './public';
import { DerivRest } from './rest';
import type { DerivSession } from './session';
import { SYMBOL_OF_UNDERLYING, derivUnderlying } from './symbols';
import { num, readContract, readProposal } from './wire';
import { enabledCurrencies } from '../enabled-pairs';

export { impliedExitSpot, type OpenContract } from './contracts';
export { tickTime } from './fills';

export interface DerivVenueOptions {
  /** The legacy API's socket, e.g. wss://ws.derivws.com/websockets/v3 (DERIV_WS_URL). */
  url: string;
  /** The new API's public socket for quotes and offers (DERIV_PUBLIC_WS_URL). */
  publicUrl: string;
  /** The new API's REST base for accounts and one-time passwords (DERIV_API_URL). */
  apiUrl: string;
  /** App id for legacy tokens saved without their own (DERIV_APP_ID). */
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
  /** What selling now would pay, in the account currency. */
  bidPrice: string;
  profit: string;
  currentSpot: string;
  isSold: boolean;
  status: string;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export class DerivVenue implements Venue {
  private readonly inflight = new InFlight<LegFill>();
  readonly id = 'deriv' as const;
  private readonly market: DerivPublic;
  private readonly accounts: DerivAccounts;
  private readonly terms: Kept<StakeTerms>;
  /** The market-data socket's health (public.ts); users' own trading sockets open and close with their orders. */
  readonly health: VenueHealthSource;

  constructor(options: DerivVenueOptions) {
    const connection = {
      backoff: options.backoff,
      pingIntervalMs: options.pingIntervalMs,
      requestTimeoutMs: options.requestTimeoutMs,
    };
    this.terms = new Kept(options.offerCacheMs ?? 10 * 60_000);
    this.market = new DerivPublic({ url: options.publicUrl, offerCacheMs: options.offerCacheMs, ...connection });
    this.health = this.market.health;
    this.accounts = new DerivAccounts({
      legacyUrl: options.url,
      defaultAppId: options.appId,
      rest: new DerivRest({ baseUrl: options.apiUrl, timeoutMs: options.requestTimeoutMs }),
      ...connection,
    });
  }

  quotes(symbol: SymbolId): Observable<Quote> {
    return this.market.quotes(symbol);
  }

  async takerFeeRate(_account: VenueAccount): Promise<string> {
    // Deriv charges a commission per contract, stated in each proposal and reported as the fill's fee.
    return '0';
  }

  async balances(account: VenueAccount): Promise<Record<Currency, string>> {
    const answer = await this.call(account, { balance: 1 }, 'read');
    const balance = num((answer['balance'] as Json | undefined)?.['balance']) ?? 0;
    // Deriv holds USD only (multipliers settle in the account's currency): no coin of any pair.
    const coins = Object.fromEntries(enabledCurrencies().map((c) => [c, '0']));
    return { ...coins, USDT: new Decimal(balance).toFixed() };
  }

  /** The lowest multiplier offered for the symbol, the stake bounds and the commission of its proposals. */
  async tradeRules(account: VenueAccount, symbol: SymbolId): Promise<TradeRules> {
    const { session } = await this.accounts.session(account);
    const currency = session.account.currency;
    const offer = await this.market.offer(symbol);
    const multipliers = [offer.lowest.MULTUP, offer.lowest.MULTDOWN].filter((m): m is number => m !== null);
    const multiplier = multipliers.length > 0 ? Math.max(...multipliers) : null;
    const terms =
      multiplier === null ? null : await this.stakeTerms(account, session, symbol, multiplier, offer.defaultStake);
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
    const { state, session } = await this.accounts.session(account);
    const known = await this.findOrder(account, order.symbol, order.clientOrderId);
    if (known) return known;
    const notional = new Decimal(order.notional);
    if (!notional.isFinite() || notional.lte(0))
      throw new VenueError('deriv', 'rejected', `Invalid notional: ${order.notional}`);
    const contractType: ContractType = order.side === 'buy' ? 'MULTUP' : 'MULTDOWN';
    const multiplier = (await this.market.offer(order.symbol)).lowest[contractType];
    if (multiplier === null)
      throw new VenueError('deriv', 'rejected', `Deriv offers no ${contractType} multiplier for ${order.symbol}`);
    const stake = notional.dividedBy(multiplier).toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const underlying = derivUnderlying(order.symbol);
    const currency = session.account.currency;
    let proposalAnswer: Json;
    try {
      proposalAnswer = await this.call(
        account,
        proposalRequest(session, contractType, stake, multiplier, underlying),
        'read',
      );
    } catch (error) {
      // The offer changed under us: read it again before the next order.
      if (error instanceof VenueError && /multiplier/i.test(error.message)) this.market.forgetOffer(order.symbol);
      throw error;
    }
    const proposal = readProposal(proposalAnswer);
    this.terms.set(
      `${currency}|${order.symbol}|${multiplier}`,
      parseStakeTerms(proposal.raw, stake.toNumber(), multiplier),
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
    let bought: { contractId: number; buyPrice: number; purchaseTime: number | undefined };
    try {
      const answer = await this.call(
        account,
        { buy: proposal.id, price: proposal.askPrice, passthrough: { client_order_id: order.clientOrderId } },
        'order',
      );
      const buy = (answer['buy'] ?? {}) as Json;
      bought = {
        contractId: num(buy['contract_id']) ?? 0,
        buyPrice: num(buy['buy_price']) ?? proposal.askPrice,
        purchaseTime: num(buy['purchase_time']) ?? num(buy['start_time']),
      };
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
    remember(state.opened, order.clientOrderId, bought.contractId);
    // The contract is bought: from here on nothing may turn the fill into an error. Its id is written down first.
    await order.journal?.({ kind: 'placed', venueOrderId: String(bought.contractId) }).catch(() => undefined);
    // Its own record has the exact entry spot; if that read fails, the proposal's spot and commission describe it.
    const contract = await this.contract(account, bought.contractId).catch(() => null);
    return openingFill(
      order.clientOrderId,
      contract ?? {
        contract_id: bought.contractId,
        contract_type: contractType,
        underlying,
        buy_price: bought.buyPrice,
        commission: proposal.commission,
        entry_spot: proposal.spot,
        purchase_time: bought.purchaseTime,
        multiplier,
        is_sold: 0,
      },
    );
  }

  private async closePosition(account: VenueAccount, order: CloseOrder): Promise<LegFill> {
    const { state } = await this.accounts.session(account);
    const contractId = Number(order.venueOrderId);
    if (!order.venueOrderId || !Number.isInteger(contractId))
      throw new VenueError(
        'deriv',
        'rejected',
        `Cannot close without a Deriv contract id (got ${order.venueOrderId ?? 'none'})`,
      );
    const current = await this.contract(account, contractId);
    if (current.is_sold) return this.closed(state, order, current);
    let soldFor: number;
    try {
      const answer = await this.call(account, { sell: contractId, price: 0 }, 'order');
      soldFor = num((answer['sell'] as Json | undefined)?.['sold_for']) ?? 0;
    } catch (error) {
      const mapped = toVenueError(error, 'order');
      // Sold meanwhile (by a retry, a stop-out or the user): the contract says so, and that is the close.
      const after = await this.contract(account, contractId).catch(() => {
        throw mapped;
      });
      if (after.is_sold) return this.closed(state, order, after);
      throw mapped.kind === 'unknown-outcome'
        ? new VenueError(
            'deriv',
            'unavailable',
            `Deriv failed while selling contract ${contractId}; it is still open (${mapped.message})`,
          )
        : mapped;
    }
    const after = await this.contract(account, contractId).catch(() => null);
    if (after?.is_sold) return this.closed(state, order, after);
    // Sold, but its record could not be read: the price it sold for implies the exit spot.
    return this.closed(state, order, {
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
    const { state } = await this.accounts.session(account);
    const closedId = state.closed.get(clientOrderId);
    if (closedId !== undefined)
      return this.closed(state, { clientOrderId, quantity: null }, await this.contract(account, closedId));
    if (known?.role === 'close') {
      if (!known.venueOrderId) return null;
      const contract = await this.contract(account, Number(known.venueOrderId));
      return contract.is_sold ? this.closed(state, { clientOrderId, quantity: null }, contract) : null;
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
    return openingFill(clientOrderId, await this.contract(account, contractId));
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
          price: exitPrice(contract),
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
    const { session } = await this.accounts.session(account);
    return (await openContracts(this.calls(account))).map((c) => ({
      venueOrderId: String(c.contractId),
      symbol: SYMBOL_OF_UNDERLYING.get(c.underlying) ?? null,
      description: `${c.contractType} ${c.underlying}, stake ${c.buyPrice} ${session.account.currency}`,
      openedAt: c.purchaseTime * 1000,
    }));
  }

  /** Finds out afresh which API and accounts the token reaches and checks their trading connection (accounts.ts). */
  testConnection(account: VenueAccount): Promise<string> {
    return this.accounts.test(account);
  }

  async close(): Promise<void> {
    await Promise.all([this.market.close(), this.accounts.close()]);
  }

  private contractStream(account: VenueAccount, contractId: string): Observable<OpenContract> {
    return new Observable<OpenContract>((subscriber) => {
      let stop: (() => void) | null = null;
      let done = false;
      this.accounts.session(account).then(
        ({ session }) => {
          if (done) return;
          const subscription = session.client.subscribe(
            { proposal_open_contract: 1, contract_id: Number(contractId) },
            (message) => {
              const raw = message['proposal_open_contract'] as Json | undefined;
              if (!raw?.['contract_id']) return;
              const poc = readContract(raw);
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

  /** Stake bounds and commission for a multiplier, from a proposal (a probe at Deriv's default stake when none yet). */
  private stakeTerms(
    account: VenueAccount,
    session: DerivSession,
    symbol: SymbolId,
    multiplier: number,
    defaultStake: number | null,
  ): Promise<StakeTerms> {
    return this.terms.get(`${session.account.currency}|${symbol}|${multiplier}`, async () => {
      const stake = new Decimal(defaultStake ?? 10);
      const request = proposalRequest(session, 'MULTUP', stake, multiplier, derivUnderlying(symbol));
      const answer = await this.call(account, request, 'read');
      return parseStakeTerms(readProposal(answer).raw, stake.toNumber(), multiplier);
    });
  }

  private closed(
    state: AccountState,
    order: { clientOrderId: string; quantity: string | null },
    contract: OpenContract,
  ): LegFill {
    remember(state.closed, order.clientOrderId, contract.contract_id);
    return closingFill(order, contract);
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
    return readContract((answer['proposal_open_contract'] ?? {}) as Json);
  }

  private async call(account: VenueAccount, message: Json, phase: CallPhase): Promise<Json> {
    const { session } = await this.accounts.session(account);
    return request(session, message, phase);
  }
}

/** A multiplier proposal by stake in the account currency, the underlying named as this API names it. */
function proposalRequest(
  session: DerivSession,
  contractType: ContractType,
  stake: Decimal,
  multiplier: number,
  underlying: string,
): Json {
  return {
    proposal: 1,
    amount: stake.toNumber(),
    basis: 'stake',
    contract_type: contractType,
    currency: session.account.currency,
    multiplier,
    [session.symbolField]: underlying,
  };
}
