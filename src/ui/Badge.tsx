import type { ReactNode } from 'react';
import * as styles from './ui.css';

export type Tone = keyof typeof styles.badgeTone;

/** `asWritten`: the text is already in its words (the contract's labels), so it is not capitalised. */
export function Badge({
  tone = 'neutral',
  asWritten = false,
  children,
}: {
  tone?: Tone;
  asWritten?: boolean;
  children: ReactNode;
}) {
  return (
    <span className={`${styles.badge} ${styles.badgeTone[tone]} ${asWritten ? styles.badgeAsWritten : ''}`}>
      {children}
    </span>
  );
}

/** Trade status colours (spec section 4): completed green, pending amber, failed red, anything else neutral. */
export function statusTone(status: string): Tone {
  switch (status) {
    case 'completed':
    case 'active':
      return 'profit';
    case 'pending':
      return 'warning';
    case 'failed':
      return 'loss';
    default:
      return 'neutral';
  }
}
