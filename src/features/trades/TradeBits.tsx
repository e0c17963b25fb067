import { Link } from '@tanstack/react-router';
import type { Trade } from '../../../contract/entities';
import { tradeLifeOf, type TradeLifeKind } from '../../../contract/trade-life';
import { formatSpread, formatUsd, profitTone } from '../../lib/format';
import { Badge, statusTone } from '../../ui/Badge';
import * as ui from '../../ui/ui.css';

/** The badge colours of the spec's statuses, by the trade's life (a closed trade is a completed one). */
const TONE_STATUS: Record<TradeLifeKind, string> = {
  open: 'pending',
  closed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

type LifeFields = Pick<Trade, 'status' | 'reason' | 'legs'>;

/** The trade's life in the contract's words (contract/trade-life.ts): 'Open', 'Closed — flattened', 'Failed', … */
export function StatusBadge({ trade }: { trade: LifeFields }) {
  const life = tradeLifeOf(trade);
  return (
    <span data-testid="trade-life" data-life={life.kind}>
      <Badge tone={statusTone(TONE_STATUS[life.kind])} asWritten>
        {life.label}
      </Badge>
    </span>
  );
}

/**
 * A trade's realised result. An open trade has none yet: '—', never '▲ $0.00'. A cancelled trade (no leg was ever
 * filled) moved nothing and is shown in neutral colour. Closed and failed trades: green with ▲ at 0 or more, red with
 * ▼ below, however they closed.
 */
export function Profit({ trade }: { trade: Pick<Trade, 'status' | 'actualProfit' | 'reason' | 'legs'> }) {
  const life = tradeLifeOf(trade);
  if (life.kind === 'open') {
    return (
      <span className={`${ui.numeric} ${ui.muted}`} data-testid="trade-profit" title="Open: no realised result yet">
        —
      </span>
    );
  }
  const up = profitTone(trade.actualProfit) === 'profit';
  const tone = life.kind === 'cancelled' ? 'neutral' : up ? 'profit' : 'loss';
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
