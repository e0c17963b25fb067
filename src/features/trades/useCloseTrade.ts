import { useCallback, useState } from 'react';
import type { Trade } from '../../../contract/entities';
import { showTradeToast } from '../toasts/tradeToast';
import { messageOf } from '../../hooks/errors';
import { useOfflineStatus } from '../../hooks/data';
import { useServices } from '../../hooks/services';

import { needsServerText } from '../offline/offlineText';

/**
 * Close, the same on every screen that shows an open trade (Dashboard, Trades, the trade's page): the engine closes
 * both legs and the trade ends closed by you, with its realised P&L; its update arrives through trade_updated. The
 * wire still asks for it as a status change to 'cancelled' (the spec's call).
 */
export function useCloseTrade(): {
  close: (trade: Trade) => Promise<void>;
  closing: ReadonlySet<string>;
  /** Why Close is disabled now (offline), else null. */
  disabled: string | null;
} {
  const { actions } = useServices();
  const { offline } = useOfflineStatus();
  const [closing, setClosing] = useState<ReadonlySet<string>>(new Set());
  const close = useCallback(
    async (t: Trade) => {
      setClosing((s) => new Set(s).add(t._id));
      try {
        await actions.updateTradeStatus(t._id, { status: 'cancelled', actualProfit: 0 });
        showTradeToast(t._id, `Closing ${t.symbol}: both legs`, 'info');
      } catch (err) {
        showTradeToast(t._id, messageOf(err, 'Failed to close the trade'), 'error');
        setClosing((s) => {
          const next = new Set(s);
          next.delete(t._id);
          return next;
        });
      }
    },
    [actions],
  );
  return { close, closing, disabled: offline ? needsServerText('Close') : null };
}
