import { useObservableEagerState, useSubscription } from 'observable-hooks';
import { useRef } from 'react';
import { toast } from 'react-toastify';
import { SERVER_EVENTS } from '../../../contract/events';
import { formatSpread } from '../../lib/format';
import type { ServerEvent } from '../../services/realtime/socketLink';
import { useServices } from '../../hooks/services';
import { showTradeToast, tradeToastText } from './tradeToast';

/** Opportunities can arrive several times a second in a busy market; one toast per pair per window is enough. */
const OPPORTUNITY_TOAST_EVERY_MS = 30_000;

/**
 * Realtime toasts of spec section 8. A trade's events share one toast (tradeToast.ts); opportunity toasts only when
 * this device's preference asks for them (off by default: the opportunities list shows them).
 */
export function RealtimeToasts() {
  const { realtime, preferences } = useServices();
  const { opportunityToasts } = useObservableEagerState(preferences.preferences$);
  const lastOpportunityToast = useRef(new Map<string, number>());
  useSubscription(realtime.events$, (e: ServerEvent) => {
    switch (e.name) {
      case SERVER_EVENTS.newTrade:
      case SERVER_EVENTS.tradeUpdated: {
        const { text, kind } = tradeToastText(e.payload);
        const type =
          kind === 'failed' ? 'error' : kind === 'open' ? 'info' : e.payload.actualProfit < 0 ? 'warning' : 'success';
        showTradeToast(e.payload._id, text, type, { final: kind !== 'open' });
        break;
      }
      case SERVER_EVENTS.arbitrageOpportunity: {
        if (!opportunityToasts) break;
        const now = Date.now();
        const last = lastOpportunityToast.current.get(e.payload.pair) ?? 0;
        if (now - last < OPPORTUNITY_TOAST_EVERY_MS) break;
        lastOpportunityToast.current.set(e.payload.pair, now);
        toast.info(`Arbitrage opportunity: ${e.payload.pair} (${formatSpread(e.payload.spread)})`, {
          toastId: `opportunity:${e.payload.pair}`,
        });
        break;
      }
      case SERVER_EVENTS.notice:
        toast[e.payload.level](e.payload.message);
        break;
      default:
        break;
    }
  });
  return null;
}
