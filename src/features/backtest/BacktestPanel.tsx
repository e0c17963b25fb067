// Settings → Backtest: try limits on the prices the server recorded (last hour, day or week), see the equity curve
// and the figures beside what the current settings would have done, and apply the tried limits in one click.
import { useObservableEagerState } from 'observable-hooks';
import { useMemo, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { BacktestRange, BacktestResult, BacktestSymbol } from '../../../contract/backtest';
import { BACKTEST_ALL_PAIRS, BACKTEST_RANGES } from '../../../contract/backtest';
import { usePairs } from '../../hooks/data';
import type { PublicUser } from '../../../contract/entities';
import { useRunBacktest } from '../../hooks/backtest';
import { messageOf } from '../../hooks/errors';
import { useServices } from '../../hooks/services';
import { useTimeZone } from '../../hooks/timeZone';
import { formatDateTime, formatDayTime, formatSpread, formatUsd } from '../../lib/format';
import { winRateText } from '../../../contract/figures';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import * as styles from './backtest.css';
import {
  bodyOf,
  currentLimits,
  formFromUser,
  limitsOf,
  RANGE_LABELS,
  sameLimits,
  type BacktestForm,
  type Limits,
  replayedAnything,
} from './backtestForm';
import { EquityChart, type EquityLine } from './EquityChart';

interface Outcome {
  tried: BacktestResult;
  current: BacktestResult;
  triedLimits: Limits;
}

const signed = (value: number) => (value > 0 ? styles.profit : value < 0 ? styles.loss : undefined);
const count = (n: number) => n.toLocaleString('en-US');
/** Which resolutions were replayed: the history keeps seconds for a day and minute averages before that. */
const midsText = (seconds: number, minutes: number): string =>
  minutes > 0
    ? `${count(seconds)} one-second samples and ${count(minutes)} one-minute averages (older than a day: spikes shorter than a minute are smoothed away)`
    : `${count(seconds)} one-second samples`;
/** Says what was replayed: the engine's own recorded books, or mids from before those were kept. */
const replayedText = ({ source, bookTicks, secondSamples, minuteSamples }: BacktestResult['replayed']): string => {
  const books = `the ${count(bookTicks)} price ticks the engine decided on (both venues' bid and ask)`;
  const mids = `mid prices recorded before the engine's books were kept, rebuilt with each venue's usual spread: ${midsText(secondSamples, minuteSamples)}`;
  if (source === 'books') return `Replayed ${books}.`;
  if (source === 'mids') return `Replayed ${mids}.`;
  return `Replayed ${books}, and before them ${mids}.`;
};

export function BacktestPanel({ user }: { user: PublicUser }) {
  const pairs = usePairs();
  const services = useServices();
  const runBacktest = useRunBacktest();
  const online = useObservableEagerState(services.offline.online$);
  const [form, setForm] = useState<BacktestForm>(() => formFromUser(user));
  const [running, setRunning] = useState(false);
  const [applying, setApplying] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const set = (k: keyof BacktestForm) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  const current = currentLimits(user);

  async function run(e: FormEvent) {
    e.preventDefault();
    const tried = limitsOf(form);
    const now = Date.now();
    const isOnline = () => navigator.onLine !== false;
    setRunning(true);
    try {
      // The same range for both, so the two columns compare limits and nothing else.
      const [triedResult, currentResult] = await Promise.all([
        runBacktest(bodyOf(form, tried, now), isOnline),
        sameLimits(tried, current) ? null : runBacktest(bodyOf(form, current, now), isOnline),
      ]);
      setOutcome({ tried: triedResult, current: currentResult ?? triedResult, triedLimits: tried });
    } catch (err) {
      toast.error(messageOf(err, 'The backtest could not be run'));
    } finally {
      setRunning(false);
    }
  }

  async function apply() {
    if (!outcome) return;
    setApplying(true);
    try {
      const res = await services.actions.saveTradingSettings(user._id, outcome.triedLimits);
      services.auth.updateUser(res.user);
      toast.success('These limits are now your trading settings');
    } catch (err) {
      toast.error(messageOf(err, 'Failed to update trading settings'));
    } finally {
      setApplying(false);
    }
  }

  const applied = outcome !== null && sameLimits(outcome.triedLimits, current);

  return (
    <div className={styles.panel}>
      <p className={styles.intro}>
        What would these limits have done? The engine's own decisions and paper fills are replayed over the prices the
        server recorded.
      </p>
      <form className={styles.panel} onSubmit={run} aria-label="Backtest">
        <fieldset className={styles.ranges}>
          <legend className={styles.rangeLegend}>Range</legend>
          {(Object.keys(BACKTEST_RANGES) as BacktestRange[]).map((range) => (
            <label key={range} className={styles.rangeOption}>
              <input
                className={styles.visuallyHidden}
                type="radio"
                name="range"
                value={range}
                checked={form.range === range}
                onChange={() => setForm((f) => ({ ...f, range }))}
              />
              {RANGE_LABELS[range]}
            </label>
          ))}
        </fieldset>
        <div className={styles.fields}>
          <SelectField
            label="Symbol"
            value={form.symbol}
            onChange={(e) => setForm((f) => ({ ...f, symbol: e.target.value as BacktestSymbol }))}
          >
            <option value={BACKTEST_ALL_PAIRS}>{pairs.length === 2 ? 'Both' : 'All pairs'}</option>
            {pairs.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Max Exposure (USDT)"
            type="number"
            min={0}
            step={100}
            value={form.maxExposure}
            onChange={set('maxExposure')}
            required
          />
          <TextField
            label="Min Spread (%)"
            type="number"
            min={0}
            max={10}
            step={0.01}
            value={form.minSpreadPercent}
            onChange={set('minSpreadPercent')}
            required
          />
          <TextField
            label="Max Loss (USDT)"
            type="number"
            min={0}
            step={10}
            value={form.maxLoss}
            onChange={set('maxLoss')}
            required
          />
        </div>
        <div className={styles.actions}>
          <Button type="submit" disabled={running || !online}>
            {!online ? 'Backtest needs a connection' : running ? 'Running…' : 'Run backtest'}
          </Button>
          {!online && <span className={styles.offline}>You're offline: a backtest runs on the server.</span>}
        </div>
      </form>
      {outcome && (
        <Results
          outcome={outcome}
          current={current}
          applied={applied}
          applying={applying}
          online={online}
          onApply={apply}
        />
      )}
    </div>
  );
}

function Results({
  outcome,
  current,
  applied,
  applying,
  online,
  onApply,
}: {
  outcome: Outcome;
  current: Limits;
  applied: boolean;
  applying: boolean;
  online: boolean;
  onApply: () => void;
}) {
  const { tried, current: mine } = outcome;
  const timeZone = useTimeZone();
  const rows: Array<{
    label: string;
    cell: (r: BacktestResult, l: Limits) => { text: string; className?: string | undefined };
  }> = [
    { label: 'Min spread', cell: (_, l) => ({ text: formatSpread(l.minSpread) }) },
    { label: 'Max exposure', cell: (_, l) => ({ text: formatUsd(l.maxExposure) }) },
    { label: 'Max loss', cell: (_, l) => ({ text: formatUsd(l.maxLoss) }) },
    { label: 'Trades', cell: (r) => ({ text: count(r.figures.trades) }) },
    {
      label: 'Net P&L',
      cell: (r) => ({ text: formatUsd(r.figures.netProfit), className: signed(r.figures.netProfit) }),
    },
    { label: 'Win rate', cell: (r) => ({ text: winRateText(r.figures) }) },
    { label: 'Max drawdown', cell: (r) => ({ text: formatUsd(r.figures.maxDrawdown) }) },
    { label: 'Exposure used', cell: (r) => ({ text: formatUsd(r.figures.exposureUsed) }) },
  ];
  // One chart per answer: a new array on every render would draw the chart again.
  const lines = useMemo<EquityLine[]>(
    () => [
      { label: 'Tried limits', points: tried.equity, tone: 'primary' },
      ...(mine === tried ? [] : [{ label: 'Current settings', points: mine.equity, tone: 'muted' as const }]),
    ],
    [tried, mine],
  );
  return (
    <section className={styles.results} aria-label="Backtest results">
      <p className={styles.range}>
        {formatDayTime(tried.from, timeZone)} → {formatDayTime(tried.to, timeZone)} ·{' '}
        {tried.replayed.symbols.join(' and ')}
      </p>
      <table className={styles.compare}>
        <thead>
          <tr>
            <th className={styles.compareHead} scope="col">
              <span className={styles.visuallyHidden}>Figure</span>
            </th>
            <th className={styles.compareHead} scope="col">
              Tried limits
            </th>
            <th className={styles.compareHead} scope="col">
              Current settings
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const a = row.cell(tried, outcome.triedLimits);
            const b = row.cell(mine, current);
            return (
              <tr key={row.label}>
                <th scope="row" className={styles.compareLabel}>
                  {row.label}
                </th>
                <td className={[styles.compareCell, a.className ?? ''].join(' ')}>{a.text}</td>
                <td className={[styles.compareCell, b.className ?? ''].join(' ')}>{b.text}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {tried.stopped && (
        <p className={styles.stopped} role="status">
          With the tried limits the engine would have stopped trading at {formatDateTime(tried.stopped.at, timeZone)}:{' '}
          {tried.stopped.reason}.
        </p>
      )}
      {replayedAnything(tried.replayed) ? (
        <EquityChart from={Date.parse(tried.from)} to={Date.parse(tried.to)} lines={lines} />
      ) : (
        <p className={styles.note} role="status" data-testid="backtest-no-prices">
          No prices were recorded for {tried.replayed.symbols.join(' or ') || 'these pairs'} from{' '}
          {formatDateTime(tried.from, timeZone)} to {formatDateTime(tried.to, timeZone)}, so there was nothing to replay
          and no P&L curve to draw. Try a range when the market was being recorded.
        </p>
      )}
      <p className={styles.note}>
        {replayedText(tried.replayed)} Fills pay each venue's quoted spread, fees and slippage as paper trading does
        {tried.openAtEnd > 0
          ? `; ${count(tried.openAtEnd)} ${tried.openAtEnd === 1 ? 'trade' : 'trades'} still open at the end ${tried.openAtEnd === 1 ? 'is' : 'are'} not counted`
          : ''}
        . Past prices do not promise future results.
      </p>
      <div className={styles.actions}>
        <Button onClick={onApply} disabled={applied || applying || !online}>
          {applied ? 'These are your limits' : applying ? 'Applying…' : 'Apply these limits'}
        </Button>
      </div>
    </section>
  );
}
