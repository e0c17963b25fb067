import { useEffect, useState } from 'react';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction, type AuditResponse } from '../../contract/guard';
import { AuditList } from '../features/audit/AuditList';
import { Pagination } from '../features/trades/Pagination';
import { useAuth, useServices } from '../hooks/services';
import { useTimeZone } from '../hooks/timeZone';
import { zonedDayStart } from '../lib/format';
import { messageOf } from '../services/http';
import { Card } from '../ui/Card';
import { SelectField, TextField } from '../ui/Field';
import * as common from '../ui/page.css';
import * as ui from '../ui/ui.css';

const LIMIT = 20;

/** A date input's day as the start (or the last millisecond) of that day in the viewer's time zone, as ISO. */
const dayBound = (day: string, end: boolean, timeZone: string): string | undefined => {
  const at = zonedDayStart(day, timeZone, end ? 1 : 0);
  return at === null ? undefined : new Date(end ? at - 1 : at).toISOString();
};

export function AdminAuditScreen() {
  const { user } = useAuth();
  if (user?.role !== 'admin') {
    return (
      <Card>
        <div className={ui.empty}>
          <h2 className={ui.emptyTitle}>Access Denied</h2>
          <p>You don&apos;t have permission to access this page.</p>
        </div>
      </Card>
    );
  }
  return <AuditLog />;
}

function AuditLog() {
  const { actions } = useServices();
  const timeZone = useTimeZone();
  const [who, setWho] = useState('');
  const [action, setAction] = useState<AuditAction | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<AuditResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  // A new filter starts again at page 1.
  useEffect(() => setPage(1), [who, action, from, to]);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      actions
        .listAudit({
          user: who.trim() || undefined,
          action: action || undefined,
          from: dayBound(from, false, timeZone),
          to: dayBound(to, true, timeZone),
          page,
          limit: LIMIT,
        })
        .then(
          (res) => live && (setAnswer(res), setError(null)),
          (err: unknown) => live && setError(messageOf(err, 'The audit log could not be loaded')),
        );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [actions, who, action, from, to, page, timeZone]);

  return (
    <div className={common.stack}>
      <Card title="Audit log">
        <div className={common.toolbar} style={{ marginBottom: '16px' }}>
          <div className={common.toolbarItem}>
            <TextField
              label="User"
              type="search"
              placeholder="Username"
              value={who}
              onChange={(e) => setWho(e.target.value)}
            />
          </div>
          <div className={common.toolbarItem}>
            <SelectField label="Action" value={action} onChange={(e) => setAction(e.target.value as AuditAction | '')}>
              <option value="">All actions</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {AUDIT_ACTION_LABELS[a]}
                </option>
              ))}
            </SelectField>
          </div>
          <div className={common.toolbarItem}>
            <TextField
              label="From"
              type="date"
              value={from}
              max={to || undefined}
              onChange={(e) => setFrom(e.target.value)}
            />
          </div>
          <div className={common.toolbarItem}>
            <TextField
              label="To"
              type="date"
              value={to}
              min={from || undefined}
              onChange={(e) => setTo(e.target.value)}
            />
          </div>
        </div>
        {error ? (
          <div className={ui.empty} role="alert">
            {error}
          </div>
        ) : answer === null ? (
          <div className={ui.empty}>Loading audit log...</div>
        ) : answer.events.length === 0 ? (
          <div className={ui.empty}>No events match these filters</div>
        ) : (
          <>
            <p className={common.cachedNote} data-testid="audit-total">
              {answer.pagination.total} event{answer.pagination.total === 1 ? '' : 's'}
            </p>
            <AuditList events={answer.events} showWho />
            <Pagination info={answer.pagination} limit={LIMIT} onPage={setPage} noun="events" />
          </>
        )}
      </Card>
    </div>
  );
}
