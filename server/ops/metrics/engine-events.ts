// Engine metrics gathered from outside the engine: its event stream carries every trade it records and updates, the
// outcomes it tells users, the opportunities it sees and the notices it sends. Prices are not counted here (the quote
// age gauge reads them at scrape time).
import type { Observable, Subscription } from 'rxjs';
import { FINISHED_STATUSES } from '../../../contract/domain';
import { SERVER_EVENTS } from '../../../contract/events';
import type { EngineEvent } from '../../engine/events';
import { exitReasonOf } from './exit-reasons';
import type { MetricFamilies } from './families';

/** How many finished trade ids are remembered, so a repeated update of a finished trade is not counted twice. */
const REMEMBERED = 10_000;

const finished = (status: string) => (FINISHED_STATUSES as readonly string[]).includes(status);

export function countEngineEvents(events$: Observable<EngineEvent>, m: MetricFamilies): Subscription {
  const counted = new Set<string>();
  const countFinished = (trade: Extract<EngineEvent, { trade: unknown }>['trade']) => {
    if (!finished(trade.status) || counted.has(trade._id)) return;
    counted.add(trade._id);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (counted.size > REMEMBERED) counted.delete(counted.values().next().value as string);
    m.tradesFinished.inc({ symbol: trade.symbol, status: trade.status, reason: exitReasonOf(trade) });
  };
  return events$.subscribe((event) => {
    switch (event.type) {
      case SERVER_EVENTS.newTrade:
        m.tradesOpened.inc({ symbol: event.trade.symbol, origin: event.trade.origin });
        countFinished(event.trade);
        break;
      case SERVER_EVENTS.tradeUpdated:
        countFinished(event.trade);
        break;
      case SERVER_EVENTS.opportunityOutcome:
        m.outcomesPublished.inc({ symbol: event.outcome.symbol, outcome: event.outcome.outcome });
        break;
      case SERVER_EVENTS.arbitrageOpportunity:
        m.opportunities.inc({ symbol: event.opportunity.pair, direction: event.opportunity.direction });
        break;
      case SERVER_EVENTS.notice:
        m.notices.inc({ level: event.notice.level });
        break;
      default:
        break;
    }
  });
}
