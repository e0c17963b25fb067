// The fake Deriv's state: accounts, quotes, proposals and multiplier contracts, priced the way Deriv prices them
// (the contract's value is stake + multiplier-scaled move − commission, never below zero).
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';

/** A legacy API token and the one account it authorizes. */
export interface FakeDerivAccount {
  token: string;
  scopes?: string[];
  loginid?: string;
  balance?: string;
  currency?: string;
}

/** An Options account of the new API (get-accounts.md). Demo ids start with DOT. */
export interface FakeOptionsAccount {
  accountId: string;
  /** From the id when not given: DOT… is demo, anything else real. */
  type?: 'demo' | 'real';
  balance?: string;
  currency?: string;
  status?: 'active' | 'inactive';
  group?: string;
}

/** A personal access token of the new API: made for one app (its app id), reaching the user's Options accounts. */
export interface FakeDerivPat {
  token: string;
  appId: string;
  /** ['trade'] when not given; get-accounts and the OTP call need `trade`. */
  scopes?: string[];
  accounts: FakeOptionsAccount[];
}

export interface FakeContract {
  contractId: number;
  /** The account's id: a legacy loginid or a new-API account_id. */
  loginid: string;
  symbol: string;
  contractType: 'MULTUP' | 'MULTDOWN';
  stake: Decimal;
  multiplier: number;
  commission: Decimal;
  entrySpot: Decimal;
  purchaseTime: number;
  buyTransactionId: number;
  sold: { price: Decimal; spot: Decimal; time: number; transactionId: number; stoppedOut?: boolean } | null;
}

export interface Proposal {
  id: string;
  symbol: string;
  contractType: 'MULTUP' | 'MULTDOWN';
  stake: Decimal;
  multiplier: number;
  commission: Decimal;
  spot: Decimal;
}

export interface StatementEntry {
  action_type: 'buy' | 'sell';
  amount: number;
  balance_after: number;
  contract_id: number;
  reference_id: number;
  transaction_id: number;
  transaction_time: number;
  shortcode: string;
}

export class DerivError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The crypto underlyings the fake offers on multipliers, with their display names (Binance's fake has more). */
export const SYMBOL_NAMES = {
  cryBTCUSD: 'BTC/USD',
  cryETHUSD: 'ETH/USD',
  cryLTCUSD: 'LTC/USD',
  cryBCHUSD: 'BCH/USD',
} as const;
export const SYMBOLS = Object.keys(SYMBOL_NAMES) as (keyof typeof SYMBOL_NAMES)[];
/** Multipliers offered for a symbol unless a test sets others (Deriv's differ per symbol and change). */
export const MULTIPLIERS = [10, 20, 30, 40, 50, 100];
/** Stake bounds of a multiplier proposal, as validation_params states them. */
export const STAKE_LIMITS = { min: '1.00', max: '2000.00' };
/** Commission as a fraction of stake × multiplier. */
export const COMMISSION_RATE = '0.0003';

export interface AccountState {
  /** Legacy loginid or new-API account_id. */
  loginid: string;
  api: 'legacy' | 'new';
  currency: string;
  type: 'demo' | 'real';
  status: 'active' | 'inactive';
  group: string;
  /** Legacy tokens' scopes (authorize); a PAT's are checked at the REST calls. */
  scopes: string[];
  balance: Decimal;
  statement: StatementEntry[];
}

const money = (d: Decimal): number => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();

export class DerivMarket {
  private readonly accounts = new Map<string, AccountState>();
  private readonly legacyTokens = new Map<string, string>();
  readonly quotes = new Map<string, { bid: Decimal; ask: Decimal; epoch: number }>();
  readonly proposals = new Map<string, Proposal>();
  readonly contracts = new Map<number, FakeContract>();
  /** Multipliers offered per symbol; MULTIPLIERS where none is set. */
  readonly multipliers = new Map<string, number[]>();
  private nextId = 1;

  constructor(accounts: FakeDerivAccount[]) {
    accounts.forEach((a) => this.addAccount(a));
    this.setQuote('cryBTCUSD', '80000.000', '80010.000');
    this.setQuote('cryETHUSD', '3000.000', '3001.000');
    this.setQuote('cryLTCUSD', '90.000', '90.020');
    this.setQuote('cryBCHUSD', '450.000', '450.100');
  }

  addAccount(account: FakeDerivAccount): void {
    const loginid = account.loginid ?? `CR${9000 + this.accounts.size}`;
    this.legacyTokens.set(account.token, loginid);
    this.accounts.set(loginid, {
      loginid,
      api: 'legacy',
      currency: account.currency ?? 'USD',
      type: loginid.startsWith('VR') ? 'demo' : 'real',
      status: 'active',
      group: 'legacy',
      scopes: account.scopes ?? ['read', 'trade'],
      balance: new Decimal(account.balance ?? '10000'),
      statement: [],
    });
  }

  addOptionsAccount(account: FakeOptionsAccount): void {
    if (this.accounts.has(account.accountId)) return;
    const type = account.type ?? (account.accountId.startsWith('DOT') ? 'demo' : 'real');
    this.accounts.set(account.accountId, {
      loginid: account.accountId,
      api: 'new',
      currency: account.currency ?? 'USD',
      type,
      status: account.status ?? 'active',
      group: account.group ?? `row/${type}`,
      scopes: [],
      balance: new Decimal(account.balance ?? '10000'),
      statement: [],
    });
  }

  /** The account a legacy token authorizes. */
  byToken(token: string): AccountState | undefined {
    const loginid = this.legacyTokens.get(token);
    return loginid === undefined ? undefined : this.accounts.get(loginid);
  }

  byLogin(loginid: string): AccountState {
    const state = this.accounts.get(loginid);
    if (!state) throw new Error(`No fake Deriv account ${loginid}`);
    return state;
  }

  setQuote(symbol: string, bid: string, ask: string): { bid: Decimal; ask: Decimal; epoch: number } {
    const quote = { bid: new Decimal(bid), ask: new Decimal(ask), epoch: Math.floor(Date.now() / 1000) };
    this.quotes.set(symbol, quote);
    return quote;
  }

  mid(symbol: string): Decimal {
    const quote = this.quotes.get(symbol);
    if (!quote) throw new DerivError('InvalidSymbol', `Symbol ${symbol} is invalid.`);
    return quote.bid.plus(quote.ask).dividedBy(2);
  }

  /** Longs enter at the ask and leave at the bid; shorts the reverse. */
  private entrySpot(symbol: string, type: 'MULTUP' | 'MULTDOWN'): Decimal {
    const quote = this.quotes.get(symbol);
    if (!quote) throw new DerivError('InvalidSymbol', `Symbol ${symbol} is invalid.`);
    return type === 'MULTUP' ? quote.ask : quote.bid;
  }

  private exitSpot(contract: FakeContract): Decimal {
    const quote = this.quotes.get(contract.symbol)!;
    return contract.contractType === 'MULTUP' ? quote.bid : quote.ask;
  }

  /** `symbol`: the underlying as the request named it (legacy `symbol`, new API `underlying_symbol`). */
  propose(request: Record<string, unknown>, currency: string, symbol: string): Proposal {
    if (!SYMBOLS.includes(symbol as (typeof SYMBOLS)[number]))
      throw new DerivError('InvalidSymbol', `Symbol ${symbol} is invalid.`);
    const type = request['contract_type'];
    if (type !== 'MULTUP' && type !== 'MULTDOWN')
      throw new DerivError('ContractCreationFailure', 'Contract type is not supported by this underlying.');
    if (request['basis'] !== 'stake')
      throw new DerivError('ContractCreationFailure', 'Basis must be stake for this contract.');
    if (request['currency'] !== currency)
      throw new DerivError('InvalidCurrency', `Currency ${String(request['currency'])} is not valid for this account.`);
    const multiplier = Number(request['multiplier']);
    const offered = this.offered(symbol);
    if (!offered.includes(multiplier))
      throw new DerivError(
        'ContractBuyValidationError',
        `Multiplier is not in acceptable range. Accepts ${offered.join(',')}.`,
      );
    const stake = new Decimal(Number(request['amount']));
    if (!stake.isFinite() || stake.lt(STAKE_LIMITS.min))
      throw new DerivError(
        'ContractBuyValidationError',
        `Please enter a stake amount that's at least ${STAKE_LIMITS.min}.`,
      );
    if (stake.gt(STAKE_LIMITS.max))
      throw new DerivError('ContractBuyValidationError', `Maximum stake allowed is ${STAKE_LIMITS.max}.`);
    if (stake.decimalPlaces() > 2)
      throw new DerivError('ContractCreationFailure', 'Stake can not have more than 2 decimal places.');
    const commission = stake.times(multiplier).times(COMMISSION_RATE).toDecimalPlaces(2, Decimal.ROUND_UP);
    const proposal: Proposal = {
      // Deriv's ids are long opaque strings: buy takes ^[\w-]{32,128}$ (buy.md).
      id: randomUUID(),
      symbol,
      contractType: type,
      stake,
      multiplier,
      commission,
      spot: this.entrySpot(symbol, type),
    };
    this.proposals.set(proposal.id, proposal);
    return proposal;
  }

  buy(loginid: string, proposalId: string, maxPrice: number): FakeContract {
    const proposal = this.proposals.get(proposalId);
    if (!proposal) throw new DerivError('InvalidContractProposal', 'Unknown contract proposal');
    if (new Decimal(maxPrice).lt(proposal.stake))
      throw new DerivError('ContractBuyValidationError', 'Contract price is higher than the maximum you set.');
    const state = this.byLogin(loginid);
    if (state.balance.lt(proposal.stake)) {
      throw new DerivError(
        'InsufficientBalance',
        `Your account balance (USD${state.balance.toFixed(2)}) is insufficient to buy this contract (USD${proposal.stake.toFixed(2)}).`,
      );
    }
    this.proposals.delete(proposalId);
    state.balance = state.balance.minus(proposal.stake);
    const contract: FakeContract = {
      contractId: 200_000 + this.nextId++,
      loginid,
      symbol: proposal.symbol,
      contractType: proposal.contractType,
      stake: proposal.stake,
      multiplier: proposal.multiplier,
      commission: proposal.commission,
      entrySpot: this.entrySpot(proposal.symbol, proposal.contractType),
      purchaseTime: Math.floor(Date.now() / 1000),
      buyTransactionId: 500_000 + this.nextId++,
      sold: null,
    };
    this.contracts.set(contract.contractId, contract);
    state.statement.push({
      action_type: 'buy',
      amount: -money(contract.stake),
      balance_after: money(state.balance),
      contract_id: contract.contractId,
      reference_id: contract.buyTransactionId,
      transaction_id: contract.buyTransactionId,
      transaction_time: contract.purchaseTime,
      shortcode: shortcode(contract),
    });
    return contract;
  }

  offered(symbol: string): number[] {
    return this.multipliers.get(symbol) ?? MULTIPLIERS;
  }

  /** contracts_for: the multiplier contracts offered for a symbol, with their multiplier ranges. */
  contractsFor(symbol: string): Record<string, unknown> {
    if (!SYMBOLS.includes(symbol as (typeof SYMBOLS)[number]))
      throw new DerivError('InvalidSymbol', `Symbol ${symbol} invalid.`);
    const item = (contractType: 'MULTUP' | 'MULTDOWN') => ({
      barrier_category: 'american',
      barriers: 0,
      cancellation_range: [],
      contract_category: 'multiplier',
      contract_category_display: 'Multiply Up/Multiply Down',
      contract_display: contractType === 'MULTUP' ? 'Multiply Up' : 'Multiply Down',
      contract_type: contractType,
      default_stake: 10,
      exchange_name: 'CRYPTOCURRENCY',
      expiry_type: 'no_expiry',
      market: 'cryptocurrency',
      max_contract_duration: '',
      min_contract_duration: '',
      multiplier_range: this.offered(symbol),
      sentiment: contractType === 'MULTUP' ? 'up' : 'down',
      start_type: 'spot',
      submarket: 'non_stable_coin',
      underlying_symbol: symbol,
    });
    return {
      available: [item('MULTUP'), item('MULTDOWN')],
      close: null,
      feed_license: 'realtime',
      hit_count: 2,
      open: null,
      spot: this.mid(symbol).toNumber(),
    };
  }

  /** The contract hit its stop-out: Deriv sells it by itself for what is left (nothing, at a full stop-out). */
  stopOut(contractId: number): FakeContract {
    const contract = this.contracts.get(contractId);
    if (!contract || contract.sold) throw new Error(`No open fake contract ${contractId}`);
    return this.settle(contract, new Decimal(0), true);
  }

  /** Current value of an open contract (what selling it now pays). */
  value(contract: FakeContract): Decimal {
    if (contract.sold) return contract.sold.price;
    const move = this.exitSpot(contract)
      .dividedBy(contract.entrySpot)
      .minus(1)
      .times(contract.contractType === 'MULTUP' ? 1 : -1);
    const value = contract.stake.plus(contract.stake.times(contract.multiplier).times(move)).minus(contract.commission);
    return Decimal.max(0, value).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  }

  sell(loginid: string, contractId: number): FakeContract {
    const contract = this.contracts.get(contractId);
    if (!contract || contract.loginid !== loginid)
      throw new DerivError('InvalidSellContractProposal', 'This contract was not found among your open positions.');
    if (contract.sold) throw new DerivError('InvalidSellContractProposal', 'This contract has been sold.');
    return this.settle(contract, this.value(contract), false);
  }

  /** The sale of a contract: paid out, recorded in the statement. */
  private settle(contract: FakeContract, price: Decimal, stoppedOut: boolean): FakeContract {
    const state = this.byLogin(contract.loginid);
    state.balance = state.balance.plus(price);
    contract.sold = {
      price,
      spot: this.exitSpot(contract),
      time: Math.floor(Date.now() / 1000),
      transactionId: 500_000 + this.nextId++,
      stoppedOut,
    };
    state.statement.push({
      action_type: 'sell',
      amount: money(price),
      balance_after: money(state.balance),
      contract_id: contract.contractId,
      reference_id: contract.sold.transactionId,
      transaction_id: contract.sold.transactionId,
      transaction_time: contract.sold.time,
      shortcode: shortcode(contract),
    });
    return contract;
  }

  openContractPayload(contract: FakeContract): Record<string, unknown> {
    const value = this.value(contract);
    const current = contract.sold ? contract.sold.spot : this.exitSpot(contract);
    return {
      contract_id: contract.contractId,
      contract_type: contract.contractType,
      underlying: contract.symbol,
      currency: this.byLogin(contract.loginid).currency,
      multiplier: contract.multiplier,
      buy_price: money(contract.stake),
      bid_price: money(value),
      profit: money(value.minus(contract.stake)),
      commission: money(contract.commission),
      entry_spot: contract.entrySpot.toNumber(),
      current_spot: current.toNumber(),
      current_spot_time: Math.floor(Date.now() / 1000),
      date_start: contract.purchaseTime,
      purchase_time: contract.purchaseTime,
      is_sold: contract.sold ? 1 : 0,
      is_valid_to_sell: contract.sold ? 0 : 1,
      status: contract.sold ? (contract.sold.stoppedOut ? 'lost' : 'sold') : 'open',
      shortcode: shortcode(contract),
      transaction_ids: contract.sold
        ? { buy: contract.buyTransactionId, sell: contract.sold.transactionId }
        : { buy: contract.buyTransactionId },
      ...(contract.sold
        ? {
            sell_price: money(contract.sold.price),
            sell_spot: contract.sold.spot.toNumber(),
            sell_time: contract.sold.time,
            exit_tick: contract.sold.spot.toNumber(),
          }
        : {}),
    };
  }
}

/** Two decimals, as the new API's money strings. */
const cents = (d: Decimal): string => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
/** A spot as the new API's strings carry it, at the feed's pip size (3 for these underlyings). */
const spot = (d: Decimal): string => d.toFixed(3);

/**
 * proposal_open_contract as the new API sends it (proposal-open-contract.md): `underlying_symbol`, no `loginid`,
 * bid_price, buy_price, commission, current_spot, entry_spot, exit_spot, payout, profit and sell_price as strings
 * (null where there is none yet), sell_time null until sold.
 */
export function newApiContractPayload(market: DerivMarket, contract: FakeContract): Record<string, unknown> {
  const value = market.value(contract);
  const sold = contract.sold;
  const current = sold ? sold.spot : new Decimal(String(market.openContractPayload(contract)['current_spot']));
  return {
    contract_id: contract.contractId,
    contract_type: contract.contractType,
    underlying_symbol: contract.symbol,
    currency: market.byLogin(contract.loginid).currency,
    multiplier: contract.multiplier,
    buy_price: cents(contract.stake),
    bid_price: cents(value),
    profit: cents(value.minus(contract.stake)),
    payout: cents(value),
    commission: cents(contract.commission),
    entry_spot: spot(contract.entrySpot),
    entry_spot_time: contract.purchaseTime,
    current_spot: spot(current),
    current_spot_time: Math.floor(Date.now() / 1000),
    date_start: contract.purchaseTime,
    purchase_time: contract.purchaseTime,
    expiry_time: contract.purchaseTime + 365 * 86_400,
    is_expired: 0,
    is_sold: sold ? 1 : 0,
    is_valid_to_sell: sold ? 0 : 1,
    is_valid_to_cancel: 0,
    status: sold ? (sold.stoppedOut ? 'lost' : 'sold') : 'open',
    longcode: `Win ${contract.multiplier}x the percentage ${contract.contractType === 'MULTUP' ? 'rise' : 'fall'} of ${contract.symbol}.`,
    shortcode: shortcode(contract),
    limit_order: {
      stop_out: {
        display_name: 'Stop out',
        order_amount: -contract.stake.minus(contract.commission).toNumber(),
        order_date: contract.purchaseTime,
      },
    },
    transaction_ids: sold
      ? { buy: contract.buyTransactionId, sell: sold.transactionId }
      : { buy: contract.buyTransactionId },
    sell_price: sold ? cents(sold.price) : null,
    sell_time: sold ? sold.time : null,
    exit_spot: sold ? spot(sold.spot) : null,
    exit_spot_time: sold ? sold.time : null,
  };
}

/** Deriv's shortcode for a multiplier contract: TYPE_SYMBOL_STAKE_START_MULTIPLIER... (enough to identify it). */
export function shortcode(contract: FakeContract): string {
  return `${contract.contractType}_${contract.symbol.toUpperCase()}_${contract.stake.toFixed(2)}_${contract.purchaseTime}_${contract.multiplier}_0_0`;
}
