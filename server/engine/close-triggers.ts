// When open trades close, kept so a tick asks only about the trades it triggers: every trade of a symbol and
// direction converges together (they close as one group once the spread in their favour is back inside the close
// band); each trade's stop fires when the spread widens a set amount beyond where it opened; each trade has a time
// limit. A trade leaves a trigger by firing it or when it ends (a fired stop or deadline of an ended trade is skipped
// by the caller, who knows which trades are still open).
import type { SymbolId } from '../../contract/domain';
import type { Direction } from './prices';
import { SortedQueue } from './sorted-queue';

const groupKey = (symbol: SymbolId, direction: Direction): string => `${symbol}|${direction}`;

export interface TriggerTrade {
  tradeId: string;
  symbol: SymbolId;
  direction: Direction;
  /** Spread in the trade's favour at open (positive). */
  openEdge: number;
}

export class CloseTriggers {
  /** Open trades per symbol and direction: they all converge together. */
  private readonly convergeGroups = new Map<string, Set<string>>();
  /** Open trades per symbol and direction, by the edge at which their stop fires. */
  private readonly stops = new Map<string, SortedQueue<string>>();
  private readonly deadlines = new SortedQueue<string>();

  constructor(
    private readonly closeBand: number,
    private readonly stopWidening: number,
  ) {}

  /** The trade's time limit, from the moment it is tracked (opening included). */
  addDeadline(tradeId: string, deadline: number): void {
    this.deadlines.push(deadline, tradeId);
  }

  /** Both legs are open: the trade converges with its group and has a stop. */
  watch(trade: TriggerTrade): void {
    const key = groupKey(trade.symbol, trade.direction);
    let group = this.convergeGroups.get(key);
    if (!group) this.convergeGroups.set(key, (group = new Set()));
    group.add(trade.tradeId);
    let stops = this.stops.get(key);
    if (!stops) this.stops.set(key, (stops = new SortedQueue()));
    stops.push(trade.openEdge + this.stopWidening, trade.tradeId);
  }

  /** The trade ended: it no longer converges with its group. */
  forget(trade: Pick<TriggerTrade, 'tradeId' | 'symbol' | 'direction'>): void {
    this.convergeGroups.get(groupKey(trade.symbol, trade.direction))?.delete(trade.tradeId);
  }

  /** Trades whose time limit has passed (each once). */
  expired(now: number): string[] {
    return this.deadlines.popUpTo(now);
  }

  /**
   * At the spread in the direction's favour (`edge`): the group that converged (once it does, the whole group), and
   * the trades whose stop fired.
   */
  fired(symbol: SymbolId, direction: Direction, edge: number): { converged: string[]; stopped: string[] } {
    const key = groupKey(symbol, direction);
    const group = this.convergeGroups.get(key);
    let converged: string[] = [];
    if (group && group.size > 0 && edge <= this.closeBand) {
      converged = [...group];
      group.clear();
    }
    return { converged, stopped: this.stops.get(key)?.popUpTo(edge) ?? [] };
  }
}
