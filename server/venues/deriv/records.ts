// What an account's own records say about its contracts: the portfolio (open contracts) and the statement (every buy
// and sale). After a crash this is how the connector finds the contract an unanswered buy bought: Deriv has no client
// order ids, so the attempt written down before the buy is matched against these records (contracts.ts). Both APIs
// answer these calls alike on the account's own socket; wire.ts reads either.
import type { Json } from './client';
import { matchPlacement, type ContractCandidate, type DerivPlacement, type OpenContract } from './contracts';
import { readPortfolio, readStatementBuys } from './wire';

/** The reads the lookups need, on one account's connection. */
export interface AccountCalls {
  read(request: Json): Promise<Json>;
  contract(contractId: number): Promise<OpenContract>;
}

/** The account's open multiplier contracts. */
export async function openContracts(calls: AccountCalls): Promise<ContractCandidate[]> {
  return readPortfolio(await calls.read({ portfolio: 1 }));
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
  const buys = readStatementBuys(answer).filter(
    (id) => !claimed.has(String(id)) && !open.some((c) => c.contractId === id),
  );
  const sold: ContractCandidate[] = [];
  for (const id of buys) {
    const contract = await calls.contract(id);
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
