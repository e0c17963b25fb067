// The fake's answers to each call, on either API. The legacy API (v3) authorizes a socket with `authorize` and names
// the underlying `symbol`; the new API has no `authorize` (the socket's account comes from its one-time password),
// names the underlying `underlying_symbol` (proposal.md, buy.md, portfolio.md, active-symbols.md), refuses any
// request that carries `loginid`, and answers the authenticated calls only on an account's socket.
import { STAKE_LIMITS, SYMBOL_NAMES, SYMBOLS, DerivError } from './market';
import type { Connection, Hub } from './hub';

export const LEGACY_CALLS = [
  'authorize',
  'balance',
  'ticks',
  'contracts_for',
  'proposal',
  'buy',
  'sell',
  'proposal_open_contract',
  'statement',
  'portfolio',
  'forget',
  'forget_all',
  'ping',
  'time',
];
/** The new API's calls the fake knows: `authorize` is not one of them. */
export const NEW_CALLS = LEGACY_CALLS.filter((c) => c !== 'authorize').concat('active_symbols');
/** Calls that act on an account (Auth: required): refused on the public socket. */
const ACCOUNT_CALLS = new Set(['balance', 'buy', 'sell', 'proposal_open_contract', 'statement', 'portfolio']);

/** Deriv's id patterns (buy.md, forget.md): long opaque ids, or 1 for a buy with parameters. */
const BUY_ID = /^(?:[\w-]{32,128}|1)$/;
const STREAM_ID = /^[\w-]{32,128}$/;

const invalid = (message: string) => new DerivError('InputValidationFailed', message);

/** The account a call acts for, or Deriv's refusal. */
function account(conn: Connection): string {
  if (conn.loginid) return conn.loginid;
  throw conn.dialect === 'new'
    ? new DerivError('Unauthorized', 'This call needs an account: connect with a one-time password URL.')
    : new DerivError('AuthorizationRequired', 'Please log in.');
}

function requireScope(hub: Hub, conn: Connection, scope: string): string {
  const loginid = account(conn);
  // New-API sockets were opened with a one-time password that only a token with the trade scope could get.
  if (conn.dialect === 'legacy' && !hub.market.byLogin(loginid).scopes.includes(scope))
    throw new DerivError('PermissionDenied', `Permission denied, requires ${scope} scope(s).`);
  return loginid;
}

/** Strict checks of the new API before any call: an unknown call (such as authorize), a `loginid` anywhere. */
export function checkNewApi(conn: Connection, request: Record<string, unknown>, call: string | undefined): void {
  if (!call) throw new DerivError('UnrecognisedRequest', 'Unrecognised request.');
  if ('loginid' in request) throw invalid('Input validation failed: loginid is not allowed');
  if (!conn.loginid && ACCOUNT_CALLS.has(call)) account(conn);
}

export function handle(hub: Hub, conn: Connection, request: Record<string, unknown>, call: string): void {
  const market = hub.market;
  const subscribe = request['subscribe'] === 1;
  const isNew = conn.dialect === 'new';
  switch (call) {
    case 'ping':
      return hub.reply(conn, request, 'ping', { ping: 'pong' });
    case 'time':
      return hub.reply(conn, request, 'time', { time: Math.floor(Date.now() / 1000) });
    case 'authorize': {
      const state = market.byToken(String(request['authorize']));
      if (!state) throw new DerivError('InvalidToken', 'The token is invalid.');
      conn.loginid = state.loginid;
      return hub.reply(conn, request, 'authorize', {
        authorize: {
          loginid: state.loginid,
          balance: state.balance.toDecimalPlaces(2).toNumber(),
          currency: state.currency,
          is_virtual: state.type === 'demo' ? 1 : 0,
          email: `${state.loginid.toLowerCase()}@example.com`,
          fullname: ' Test Trader',
          country: 'id',
          landing_company_name: 'svg',
          scopes: state.scopes,
          account_list: [{ loginid: state.loginid, currency: state.currency, is_virtual: 0, is_disabled: 0 }],
        },
      });
    }
    case 'balance': {
      account(conn);
      const sub = subscribe ? hub.addSubscription(conn, request, 'balance') : undefined;
      return hub.reply(conn, request, 'balance', {
        ...hub.balanceBody(conn, sub?.id),
        ...(sub ? { subscription: { id: sub.id } } : {}),
      });
    }
    case 'ticks': {
      const symbol = String(request['ticks']);
      if (!SYMBOLS.includes(symbol as (typeof SYMBOLS)[number]))
        throw new DerivError('InvalidSymbol', `Symbol ${symbol} invalid.`);
      const sub = subscribe ? hub.addSubscription(conn, request, `ticks:${symbol}`) : undefined;
      const body = hub.tickBody(symbol);
      return hub.reply(
        conn,
        request,
        'tick',
        sub ? { ...body, tick: { ...(body['tick'] as object), id: sub.id }, subscription: { id: sub.id } } : body,
      );
    }
    case 'active_symbols':
      return hub.reply(conn, request, 'active_symbols', {
        active_symbols: SYMBOLS.map((symbol) => ({
          exchange_is_open: 1,
          is_trading_suspended: 0,
          market: 'cryptocurrency',
          pip_size: 0.001,
          subgroup: 'none',
          submarket: 'non_stable_coin',
          trade_count: 0,
          underlying_symbol: symbol,
          underlying_symbol_name: SYMBOL_NAMES[symbol],
          underlying_symbol_type: 'cryptocurrency',
        })),
      });
    case 'contracts_for':
      return hub.reply(conn, request, 'contracts_for', {
        contracts_for: market.contractsFor(String(request['contracts_for'])),
      });
    case 'proposal':
      return propose(hub, conn, request, isNew);
    case 'buy': {
      const loginid = requireScope(hub, conn, 'trade');
      const id = String(request['buy']);
      if (isNew && !BUY_ID.test(id)) throw invalid('Input validation failed: buy');
      if (!conn.proposals.has(id) && market.proposals.has(id))
        throw new DerivError('InvalidContractProposal', 'Unknown contract proposal');
      conn.proposals.delete(id);
      const contract = market.buy(loginid, id, Number(request['price']));
      const state = market.byLogin(loginid);
      hub.reply(conn, request, 'buy', {
        buy: {
          balance_after: state.balance.toDecimalPlaces(2).toNumber(),
          buy_price: contract.stake.toNumber(),
          contract_id: contract.contractId,
          longcode: `Multiplier ${contract.contractType} on ${contract.symbol}`,
          payout: 0,
          purchase_time: contract.purchaseTime,
          shortcode: `${contract.contractType}_${contract.symbol.toUpperCase()}`,
          start_time: contract.purchaseTime,
          transaction_id: contract.buyTransactionId,
        },
      });
      return hub.pushBalances(loginid);
    }
    case 'sell': {
      const loginid = requireScope(hub, conn, 'trade');
      const contract = market.sell(loginid, Number(request['sell']));
      const state = market.byLogin(loginid);
      hub.reply(conn, request, 'sell', {
        sell: {
          balance_after: state.balance.toDecimalPlaces(2).toNumber(),
          contract_id: contract.contractId,
          reference_id: contract.buyTransactionId,
          sold_for: contract.sold!.price.toNumber(),
          transaction_id: contract.sold!.transactionId,
        },
      });
      hub.pushBalances(loginid);
      return hub.pushContract(contract);
    }
    case 'proposal_open_contract': {
      const loginid = account(conn);
      const contractId = Number(request['contract_id']);
      const contract = market.contracts.get(contractId);
      if (!contract || contract.loginid !== loginid) throw new DerivError('ContractNotFound', 'Contract not found.');
      const sub =
        subscribe && !contract.sold ? hub.addSubscription(conn, request, `poc:${contractId}`, contractId) : undefined;
      return hub.reply(conn, request, 'proposal_open_contract', {
        ...hub.contractBody(conn, contract, sub?.id),
        ...(sub ? { subscription: { id: sub.id } } : {}),
      });
    }
    case 'statement': {
      const state = market.byLogin(account(conn));
      const from = Number(request['date_from'] ?? 0);
      const limit = Number(request['limit'] ?? 100);
      const transactions = state.statement
        .filter((t) => t.transaction_time >= from)
        .reverse()
        .slice(0, limit);
      return hub.reply(conn, request, 'statement', { statement: { count: transactions.length, transactions } });
    }
    case 'portfolio': {
      const loginid = account(conn);
      const open = [...market.contracts.values()].filter((c) => c.loginid === loginid && !c.sold);
      return hub.reply(conn, request, 'portfolio', {
        portfolio: {
          contracts: open.map((c) => ({
            contract_id: c.contractId,
            contract_type: c.contractType,
            buy_price: c.stake.toNumber(),
            [isNew ? 'underlying_symbol' : 'symbol']: c.symbol,
            purchase_time: c.purchaseTime,
            transaction_id: c.buyTransactionId,
            currency: market.byLogin(loginid).currency,
          })),
        },
      });
    }
    case 'forget': {
      const id = String(request['forget']);
      if (isNew && !STREAM_ID.test(id)) throw invalid('Input validation failed: forget');
      const removed = conn.subscriptions.delete(id);
      return hub.reply(conn, request, 'forget', { forget: removed ? 1 : 0 });
    }
    case 'forget_all': {
      const kinds = ([] as unknown[]).concat(request['forget_all']).map(String);
      const removed = [...conn.subscriptions.values()].filter((s) =>
        kinds.some((k) => s.key.startsWith(k === 'proposal_open_contract' ? 'poc' : k)),
      );
      removed.forEach((s) => conn.subscriptions.delete(s.id));
      return hub.reply(conn, request, 'forget_all', { forget_all: removed.map((s) => s.id) });
    }
  }
}

function propose(hub: Hub, conn: Connection, request: Record<string, unknown>, isNew: boolean): void {
  const field = isNew ? 'underlying_symbol' : 'symbol';
  if (request[field] === undefined) {
    // errors.md's own example of a validation error.
    throw invalid(`Missing required parameter ${field}`);
  }
  if (isNew && 'symbol' in request) throw invalid('Input validation failed: symbol is not allowed');
  const currency = conn.loginid ? hub.market.byLogin(conn.loginid).currency : String(request['currency']);
  const proposal = hub.market.propose(request, currency, String(request[field]));
  conn.proposals.add(proposal.id);
  hub.reply(conn, request, 'proposal', {
    proposal: {
      id: proposal.id,
      ask_price: proposal.stake.toNumber(),
      display_value: proposal.stake.toFixed(2),
      payout: 0,
      spot: proposal.spot.toNumber(),
      spot_time: Math.floor(Date.now() / 1000),
      date_start: Math.floor(Date.now() / 1000),
      commission: proposal.commission.toNumber(),
      multiplier: proposal.multiplier,
      limit_order: {},
      longcode: `Win ${proposal.multiplier}x the percentage ${proposal.contractType === 'MULTUP' ? 'rise' : 'fall'} of ${proposal.symbol}.`,
      validation_params: { stake: { min: STAKE_LIMITS.min, max: STAKE_LIMITS.max } },
    },
  });
}
