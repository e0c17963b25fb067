// The users who could open a trade now, one line per symbol sorted by the |spread| at which each would open
// (threshold-index.ts), and those backing off a symbol after a failure, who rejoin the line when the back-off ends. A
// user is placed again after anything that may change whether they can open (a trade opened or ended, new limits, a
// stop, a realised figure read).
import type { SymbolId } from '../../contract/domain';
import { enabledSymbols } from '../venues/enabled-pairs';
import type { TradingParams } from './costs';
import { SortedQueue } from './sorted-queue';
import { ThresholdIndex } from './threshold-index';
import { canAutoOpen, type UserBook } from './user-book';

export class WaitingLines {
  private readonly lines = new Map<SymbolId, ThresholdIndex>(enabledSymbols().map((s) => [s, new ThresholdIndex()]));
  /** Users whose back-off on a symbol ends at a time: they wait outside the line until then. */
  private readonly backoffEnds = new SortedQueue<string>();

  constructor(private readonly params: TradingParams) {}

  line(symbol: SymbolId): ThresholdIndex {
    let line = this.lines.get(symbol);
    if (!line) this.lines.set(symbol, (line = new ThresholdIndex()));
    return line;
  }

  /** Puts the user in every symbol's line where they could open now, and out of the others. */
  place(book: UserBook, now: number): void {
    for (const symbol of this.lines.keys()) {
      const line = this.line(symbol);
      if (canAutoOpen(book, symbol, now, this.params)) line.upsert(book.limits.userId, book.threshold);
      else line.remove(book.limits.userId);
    }
  }

  /** The user backs off until `until`; placed again by the caller when `backoffsEnded` says so. */
  backOff(userId: string, until: number): void {
    this.backoffEnds.push(until, userId);
  }

  backoffsEnded(now: number): string[] {
    return this.backoffEnds.popUpTo(now);
  }
}
