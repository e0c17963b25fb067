import { Link } from '@tanstack/react-router';
import type { Trade } from '../../../contract/entities';
import { formatSpread, formatUsd, profitTone } from '../../lib/format';
import { Badge, statusTone } from '../../ui/Badge';
import * as ui from '../../ui/ui.css';

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{status}</Badge>;
}

/** Profit with an up/down arrow, green at 0 or more, red below. */
export function Profit({ value }: { value: number }) {
  const t = profitTone(value);
  return (
    <span className={`${ui.numeric} ${ui.tone[t]}`}>
      <span aria-hidden="true">{t === 'profit' ? '▲ ' : '▼ '}</span>
      {formatUsd(value)}
    </span>
  );
}

export function Spread({ trade }: { trade: Trade }) {
  return <span className={ui.numeric}>{formatSpread(trade.arbitrageSpread)}</span>;
}

/** The trade's pair as a link to its detail screen (/trades/$id), from every list that shows trades. */
export function TradeLink({ trade }: { trade: Trade }) {
  return (
    <Link to="/trades/$id" params={{ id: trade._id }} title={`Trade ${trade.tradeId}: legs, fills and fees`} data-testid="trade-link">
      {trade.symbol}
    </Link>
  );
}
