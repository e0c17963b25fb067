import type { Pagination as PageInfo } from '../../../contract/entities';
import { Button } from '../../ui/Button';
import { pageWindow, showingText } from './sortTrades';
import * as styles from './trades.css';

/** Shown only when more than one page exists (spec section 2). `noun`: what the pages count (trades by default). */
export function Pagination({
  info,
  limit,
  onPage,
  noun,
}: {
  info: PageInfo;
  limit: number;
  onPage: (page: number) => void;
  noun?: string;
}) {
  if (info.pages <= 1) return null;
  return (
    <nav className={styles.pagination} aria-label="Pagination">
      <span data-testid="pagination-text">{showingText(info.current, limit, info.total, noun)}</span>
      <div className={styles.pages}>
        <Button small variant="secondary" disabled={info.current <= 1} onClick={() => onPage(info.current - 1)}>
          Previous
        </Button>
        {pageWindow(info.current, info.pages).map((n) => (
          <Button
            key={n}
            small
            variant="secondary"
            className={n === info.current ? styles.currentPage : ''}
            aria-current={n === info.current ? 'page' : undefined}
            onClick={() => onPage(n)}
          >
            {n}
          </Button>
        ))}
        <Button
          small
          variant="secondary"
          disabled={info.current >= info.pages}
          onClick={() => onPage(info.current + 1)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
