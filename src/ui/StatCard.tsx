import type { ReactNode } from 'react';
import * as styles from './StatCard.css';
import * as ui from './ui.css';

export function StatCard({
  label,
  value,
  sub,
  tone,
  testId,
}: {
  label: string;
  value: ReactNode;
  sub?: ReactNode;
  tone?: keyof typeof ui.tone;
  testId?: string;
}) {
  return (
    <div className={styles.statCard} data-testid={testId}>
      <div className={styles.statLabel}>{label}</div>
      <div className={[styles.statValue, tone ? ui.tone[tone] : ''].join(' ')}>{value}</div>
      {sub && <div className={styles.statSub}>{sub}</div>}
    </div>
  );
}
