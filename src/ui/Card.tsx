import type { HTMLAttributes, ReactNode } from 'react';
import * as styles from './ui.css';

export function Card({
  title,
  action,
  children,
  className,
  ...rest
}: HTMLAttributes<HTMLElement> & { title?: ReactNode; action?: ReactNode }) {
  return (
    <section className={[styles.card, className ?? ''].join(' ')} {...rest}>
      {(title || action) && (
        <header className={styles.cardHeader}>
          {title && <h2 className={styles.cardTitle}>{title}</h2>}
          {action}
        </header>
      )}
      {children}
    </section>
  );
}
