import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ENGINE_BUSY_RECENT_MS } from '../../../contract/domain';
import type { OpportunityOutcome, Prices } from '../../../contract/entities';
import { RiskStrip } from './RiskStrip';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const outcome = (kind: OpportunityOutcome['outcome'], agoMs: number): OpportunityOutcome => ({
  symbol: 'BTC/USDT',
  spread: 0.008,
  direction: 'deriv-rich',
  outcome: kind,
  reason: kind === 'engine_busy' ? 'skipped: engine busy' : 'taken',
  tradeId: null,
  at: new Date(NOW - agoMs).toISOString(),
});
const prices = {} as Prices;

describe('the risk strip while the engine sheds work', () => {
  it('says so while one of the user’s opportunities was skipped for want of time lately', () => {
    render(
      <RiskStrip risk={null} status={null} prices={prices} outcomes={[outcome('engine_busy', 1_000)]} now={NOW} />,
    );
    expect(screen.getByTestId('risk-shedding').textContent).toMatch(/Engine busy/);
  });

  it('says nothing once that is older than the window, or for other outcomes', () => {
    const old = outcome('engine_busy', ENGINE_BUSY_RECENT_MS + 1);
    render(<RiskStrip risk={null} status={null} prices={prices} outcomes={[old, outcome('taken', 0)]} now={NOW} />);
    expect(screen.queryByTestId('risk-shedding')).toBeNull();
  });
});
