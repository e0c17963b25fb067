import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { VENUE_NAMES } from '../../contract/domain';
import type { Fill } from '../../contract/entities';
import { entrySlippage, filledOpenSpread, legSlippage, totalFees } from '../features/cockpit/tradeFigures';
import * as styles from '../features/cockpit/cockpit.css';
import { Profit, StatusBadge } from '../features/trades/TradeBits';
import { useCloseTrade } from '../features/trades/useCloseTrade';
import { Button } from '../ui/Button';
import { useTradeDetail } from '../hooks/cockpit';
import { useTimeZone } from '../hooks/timeZone';
import { describeSpread, formatBp, formatCoins, formatDateTime, formatPrice, formatUsd } from '../lib/format';
import { Card } from '../ui/Card';
import * as page from '../ui/page.css';
import * as ui from '../ui/ui.css';

const route = getRouteApi('/app/trades/$id');

function Item({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt className={styles.term}>{term}</dt>
      <dd className={styles.definition} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function FillText({ fill }: { fill: Fill | null }) {
  const timeZone = useTimeZone();
  if (!fill) return <>—</>;
  return (
    <>
      {formatCoins(fill.quantity)} at {formatPrice(fill.price)} · fee {formatUsd(fill.fee)}
      <br />
      <span className={ui.muted}>{formatDateTime(fill.at, timeZone)}</span>
    </>
  );
}

function LegSlippage({ slip, side }: { slip: { quote: number; slippage: number } | null; side: 'buy' | 'sell' }) {
  if (!slip) return <span className={ui.muted}>— (no quote kept for this trade)</span>;
  const verdict = slip.slippage > 0 ? 'worse' : slip.slippage < 0 ? 'better' : 'exactly at it';
  return (
    <>
      {side === 'buy' ? 'Ask' : 'Bid'} {formatPrice(slip.quote)} · {formatBp(Math.abs(slip.slippage))} {verdict}
    </>
  );
}

/** One trade: its legs and fills, fees, the entry against the decision's spread, exit reason and timestamps. */
export function TradeDetailScreen() {
  const { id } = route.useParams();
  const live = useTradeDetail(id);
  const timeZone = useTimeZone();
  const { close, closing, disabled } = useCloseTrade();
  const t = live.value;
  if (!t) {
    return (
      <Card title="Trade">
        <div className={ui.empty}>
          {live.loading
            ? 'Loading trade...'
            : 'This trade is not on this device and the server could not be reached, or it does not exist.'}
        </div>
        <Link to="/trades">Back to trades</Link>
      </Card>
    );
  }
  const filled = filledOpenSpread(t);
  const slip = entrySlippage(t);
  return (
    <div className={page.stack} data-testid="trade-detail">
      <Card title={`Trade ${t.tradeId}`} action={<Link to="/trades">All trades</Link>}>
        {t.status === 'pending' && (
          <p className={styles.detailActions}>
            <Button
              small
              variant="secondary"
              onClick={() => void close(t)}
              disabled={Boolean(disabled) || closing.has(t._id)}
              aria-label={`Close trade ${t.tradeId}`}
              data-testid="detail-close"
            >
              {closing.has(t._id) ? 'Closing…' : 'Close'}
            </Button>
            {disabled && <span className={ui.muted}>{disabled}</span>}
          </p>
        )}
        <dl className={styles.detailGrid}>
          <Item term="Pair">{t.symbol}</Item>
          <Item term="Status">
            <StatusBadge trade={t} />
          </Item>
          <Item term="Amount">{formatUsd(t.totalAmount)}</Item>
          <Item term="Realised P&L" testId="detail-profit">
            <Profit trade={t} />
          </Item>
          <Item term="Decided at spread">{describeSpread(t.arbitrageSpread)}</Item>
          <Item term="Filled at spread">{filled === null ? '—' : describeSpread(filled)}</Item>
          <Item term="Entry slippage" testId="detail-slippage">
            {slip === null
              ? '—'
              : `${formatBp(Math.abs(slip))} ${slip > 0 ? 'of the edge lost' : slip < 0 ? 'better than decided' : 'exactly as decided'}`}
          </Item>
          <Item term="Fees">{formatUsd(totalFees(t))}</Item>
          <Item term="Origin">{t.origin === 'manual' ? 'Manual' : 'Automated'}</Item>
          <Item term="Exit reason" testId="detail-reason">
            {t.reason ?? '—'}
          </Item>
          <Item term="Opened">{formatDateTime(t.createdAt, timeZone)}</Item>
          <Item term="Closed">{formatDateTime(t.closedAt, timeZone)}</Item>
        </dl>
      </Card>
      <div className={page.halves}>
        {t.legs.map((leg) => (
          <Card key={leg.venue} title={`${VENUE_NAMES[leg.venue]} leg`} data-testid="detail-leg">
            <dl className={styles.detailGrid} style={{ gridTemplateColumns: 'minmax(0, 1fr)' }}>
              <Item term="Side">
                {leg.side === 'buy' ? 'Buy (long)' : 'Sell (short)'} · {leg.status}
              </Item>
              <Item term="Open fill">
                <FillText fill={leg.open} />
              </Item>
              <Item term="Slippage against the decision's quote" testId="detail-leg-slippage">
                <LegSlippage slip={legSlippage(leg, t.decision)} side={leg.side} />
              </Item>
              <Item term="Close fill">
                <FillText fill={leg.close} />
              </Item>
              <Item term="Order ids">
                <span className={ui.muted} style={{ overflowWrap: 'anywhere' }}>
                  {leg.clientOrderId}
                  {leg.venueOrderId ? ` · ${leg.venueOrderId}` : ''}
                </span>
              </Item>
            </dl>
          </Card>
        ))}
      </div>
      {live.source === 'cache' && (
        <p className={page.cachedNote}>Shown from this device's copy; it updates when the server can be reached.</p>
      )}
    </div>
  );
}
