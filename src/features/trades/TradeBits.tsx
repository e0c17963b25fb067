import type { TradeStatus } from '../../../contract/domain';
import { Link } from '@tanstack/react-router';
import type { Trade } from '../../../contract/entities';
import { isFinished } from '../../../contract/figures';
import { formatSpread, formatUsd, profitTone } from '../../lib/format';
import { Badge, statusTone } from '../../ui/Badge';
import * as ui from '../../ui/ui.css';

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{status}</Badge>;
}

/**
 * A trade's realised result. An open trade has none yet: '—', never '▲ $0.00'. A cancelled trade's result is shown
 * in neutral colour (the user or a limit ended it; green would read as a win). Completed and failed trades: green
 * with ▲ at 0 or more, red with ▼ below.
 */
export function Profit({ trade }: { trade: Pick<Trade, 'status' | 'actualProfit'> }) {
  const status: TradeStatus = trade.status;
  if (!isFinished(status)) {
    return (
      <span className={`${ui.numeric} ${ui.muted}`} data-testid="trade-profit" title="Open: no realised result yet">
        —
      </span>
    );
  }
  const up = profitTone(trade.actualProfit) === 'profit';
  const tone = status === 'cancelled' ? 'neutral' : up ? 'profit' : 'loss';
  return (
    <span className={`${ui.numeric} ${ui.tone[tone]}`} data-testid="trade-profit">
      <span aria-hidden="true">{up ? '▲ ' : '▼ '}</span>
      {formatUsd(trade.actualProfit)}
    </span>
  );
}

export function Spread({ trade }: { trade: Trade }) {
  return <span className={ui.numeric}>{formatSpread(trade.arbitrageSpread)}</span>;
}

/** The trade's pair as a link to its detail screen (/trades/$id), from every list that shows trades. */
export function TradeLink({ trade }: { trade: Trade }) {
  return (
    <Link
      to="/trades/$id"
      params={{ id: trade._id }}
      title={`Trade ${trade.tradeId}: legs, fills and fees`}
      data-testid="trade-link"
    >
      {trade.symbol}
    </Link>
  );
}
