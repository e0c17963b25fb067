import { useSubscription } from 'observable-hooks';
import { useRef } from 'react';
import { toast } from 'react-toastify';
import { SERVER_EVENTS } from '../../../contract/events';
import { formatSpread } from '../../lib/format';
import type { ServerEvent } from '../../services/realtime/socketLink';
import { useServices } from '../../hooks/services';

/** Opportunities can arrive several times a second in a busy market; one toast per pair per window is enough. */
const OPPORTUNITY_TOAST_EVERY_MS = 30_000;

/** Realtime toasts of spec section 8. */
export function RealtimeToasts() {
  const { realtime } = useServices();
  const lastOpportunityToast = useRef(new Map<string, number>());
  useSubscription(realtime.events$, (e: ServerEvent) => {
    switch (e.name) {
      case SERVER_EVENTS.newTrade:
        if (e.payload.status === 'failed') toast.error(`Trade failed: ${e.payload.symbol}`);
        else toast.success(`New trade executed: ${e.payload.symbol}`);
        break;
      case SERVER_EVENTS.tradeUpdated:
        if (e.payload.status === 'failed') toast.error(`Trade failed: ${e.payload.symbol}`);
        else toast.info(`Trade updated: ${e.payload.symbol} - ${e.payload.status}`);
        break;
      case SERVER_EVENTS.arbitrageOpportunity: {
        const now = Date.now();
        const last = lastOpportunityToast.current.get(e.payload.pair) ?? 0;
        if (now - last < OPPORTUNITY_TOAST_EVERY_MS) break;
        lastOpportunityToast.current.set(e.payload.pair, now);
        toast.info(`Arbitrage opportunity: ${e.payload.pair} (${formatSpread(e.payload.spread)})`);
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
