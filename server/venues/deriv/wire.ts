// Deriv's answers as the connector reads them, from either API. The new API names the underlying
// `underlying_symbol` (the legacy one `symbol` or `underlying`), calls the exit `exit_spot` (legacy: `sell_spot`,
// `exit_tick`), and sends several numbers of proposal_open_contract as strings (proposal-open-contract.md: bid_price,
// buy_price, current_spot, entry_spot, profit, sell_price, commission; null where there is none yet). Everything is
// read into one shape here, numbers as numbers, so the rest of the connector does not care which API answered.
import type { Json } from './client';
import type { ContractCandidate, OpenContract } from './contracts';

/** A number Deriv sent as a number or a numeric string; undefined when absent, null, empty or not a number. */
export function num(value: unknown): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A proposal_open_contract payload (either API) as an OpenContract. */
export function readContract(raw: Json): OpenContract {
  return {
    contract_id: num(raw['contract_id']) ?? 0,
    contract_type: String(raw['contract_type'] ?? ''),
    underlying: str(raw['underlying_symbol']) ?? str(raw['underlying']) ?? str(raw['symbol']) ?? '',
    buy_price: num(raw['buy_price']) ?? 0,
    commission: num(raw['commission']),
    entry_spot: num(raw['entry_spot']) ?? num(raw['entry_tick']),
    current_spot: num(raw['current_spot']),
    sell_spot: num(raw['sell_spot']) ?? num(raw['exit_spot']),
    exit_tick: num(raw['exit_tick']) ?? num(raw['exit_spot']),
    sell_price: num(raw['sell_price']),
    sell_time: num(raw['sell_time']),
    purchase_time: num(raw['purchase_time']),
    date_start: num(raw['date_start']),
    multiplier: num(raw['multiplier']),
    bid_price: num(raw['bid_price']),
    profit: num(raw['profit']),
    status: str(raw['status']),
    is_sold: num(raw['is_sold']) ?? 0,
  };
}

/** The multiplier contracts of a portfolio answer (either API). */
export function readPortfolio(answer: Json): ContractCandidate[] {
  const contracts = ((answer['portfolio'] as { contracts?: unknown } | undefined)?.contracts ?? []) as Json[];
  return contracts
    .filter((c) => c['contract_type'] === 'MULTUP' || c['contract_type'] === 'MULTDOWN')
    .map((c) => ({
      contractId: num(c['contract_id']) ?? 0,
      contractType: String(c['contract_type']),
      underlying: str(c['underlying_symbol']) ?? str(c['underlying']) ?? str(c['symbol']) ?? '',
      buyPrice: num(c['buy_price']) ?? 0,
      purchaseTime: num(c['purchase_time']) ?? 0,
    }));
}

/** The contract ids of the buys a statement lists. */
export function readStatementBuys(answer: Json): number[] {
  const transactions = ((answer['statement'] as { transactions?: unknown } | undefined)?.transactions ?? []) as Json[];
  return transactions
    .filter((t) => t['action_type'] === 'buy')
    .map((t) => num(t['contract_id']))
    .filter((id): id is number => id !== undefined);
}

/** A proposal answer's figures. */
export interface ProposalAnswer {
  id: string;
  askPrice: number;
  spot: number | undefined;
  commission: number | undefined;
  raw: Json;
}

export function readProposal(answer: Json): ProposalAnswer {
  const raw = (answer['proposal'] ?? {}) as Json;
  return {
    id: String(raw['id'] ?? ''),
    askPrice: num(raw['ask_price']) ?? 0,
    spot: num(raw['spot']),
    commission: num(raw['commission']),
    raw,
  };
}
