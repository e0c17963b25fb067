import { useEffect, useState } from 'react';
import type { AuditResponse } from '../../../contract/guard';
import { useServices } from '../../hooks/services';
import { messageOf } from '../../hooks/errors';
import { Card } from '../../ui/Card';
import * as ui from '../../ui/ui.css';
import { Pagination } from '../trades/Pagination';
import { AuditList } from './AuditList';

const LIMIT = 10;

/** Profile's "Recent activity": the signed-in user's own audit events, ten a page. */
export function RecentActivity() {
  const { actions } = useServices();
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<AuditResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    actions.ownActivity(page, LIMIT).then(
      (res) => live && (setAnswer(res), setError(null)),
      (err: unknown) => live && setError(messageOf(err, 'Recent activity could not be loaded')),
    );
    return () => {
      live = false;
    };
  }, [actions, page]);

  return (
    <Card title="Recent activity" data-testid="recent-activity">
      {error ? (
        <div className={ui.empty}>{error}</div>
      ) : answer === null ? (
        <div className={ui.empty}>Loading activity...</div>
      ) : answer.events.length === 0 ? (
        <div className={ui.empty}>No activity recorded yet</div>
      ) : (
        <>
          <AuditList events={answer.events} showWho={false} />
          <Pagination info={answer.pagination} limit={LIMIT} onPage={setPage} noun="events" />
        </>
      )}
    </Card>
  );
}
