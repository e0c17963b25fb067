// What an account's own records say about its contracts: the portfolio (open contracts) and the statement (every buy
// and sale). After a crash this is how the connector finds the contract an unanswered buy bought: Deriv has no client
// order ids, so the attempt written down before the buy is matched against these records (contracts.ts).
import type { Json } from './client';
import { matchPlacement, type ContractCandidate, type DerivPlacement, type OpenContract } from './contracts';

/** The reads the lookups need, on one account's connection. */
export interface AccountCalls {
  read(request: Json): Promise<Json>;
  contract(contractId: number): Promise<OpenContract>;
}

/** The account's open multiplier contracts. */
export async function openContracts(calls: AccountCalls): Promise<ContractCandidate[]> {
  const answer = await calls.read({ portfolio: 1 });
  const contracts = ((answer['portfolio'] as { contracts?: Json[] } | undefined)?.contracts ?? []) as Array<{
    contract_id: number;
    contract_type: string;
    symbol?: string;
    underlying?: string;
    buy_price: number;
    purchase_time: number;
  }>;
  return contracts
    .filter((c) => c.contract_type === 'MULTUP' || c.contract_type === 'MULTDOWN')
    .map((c) => ({
      contractId: c.contract_id,
      contractType: c.contract_type,
      underlying: c.underlying ?? c.symbol ?? '',
      buyPrice: c.buy_price,
      purchaseTime: c.purchase_time,
    }));
}

/**
 * The contract a written-down attempt bought: among the open ones first; then among those bought since the attempt
 * and already sold (a stop-out while the process was down), which only the statement still lists.
 */
export async function findBought(
  calls: AccountCalls,
  placement: DerivPlacement,
  claimed: ReadonlySet<string>,
): Promise<ContractCandidate | null> {
  const open = await openContracts(calls);
  const found = matchPlacement(placement, open, claimed);
  if (found) return found;
  const answer = await calls.read({ statement: 1, description: 1, limit: 100, date_from: placement.at - 5 });
  const buys = (
    (answer['statement'] as { transactions?: { action_type: string; contract_id: number }[] }).transactions ?? []
  ).filter(
    (t) =>
      t.action_type === 'buy' &&
      !claimed.has(String(t.contract_id)) &&
      !open.some((c) => c.contractId === t.contract_id),
  );
  const sold: ContractCandidate[] = [];
  for (const buy of buys) {
    const contract = await calls.contract(buy.contract_id);
    sold.push({
      contractId: contract.contract_id,
      contractType: contract.contract_type,
      underlying: contract.underlying,
      buyPrice: contract.buy_price,
      purchaseTime: contract.purchase_time ?? contract.date_start ?? 0,
    });
  }
  return matchPlacement(placement, sold, claimed);
}
