import { AUDIT_ACTION_LABELS, type AuditEvent } from '../../../contract/guard';
import { PERCENT_FIELDS, percentText } from '../../../contract/percent';
import { useTimeZone } from '../../hooks/timeZone';
import { formatTradeDate } from '../../lib/format';
import * as styles from './audit.css';

/** A value as the app shows it: a fraction field (minSpread 0.002) in percent (0.2%), as Settings shows it. */
const valueText = (key: string, value: unknown): string =>
  PERCENT_FIELDS.has(key) && typeof value === 'number' ? percentText(value) : String(value);

/** Details as short "key: value" text; objects (which key fields were saved) flattened one level. */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([k, v]) => {
      if (Array.isArray(v)) return `${k}: ${v.join(', ')}`;
      if (v && typeof v === 'object')
        return Object.entries(v as Record<string, unknown>)
          .map(([kk, vv]) => `${kk} ${valueText(kk, vv)}`)
          .join(', ');
      return `${k}: ${valueText(k, v)}`;
    })
    .join(' · ');
}

/** Who did it to whom: "alice", or "admin → alice" when an admin acted on a user. */
function whoText(e: AuditEvent): string {
  const actor = e.actorName || (e.actorId ? 'deleted user' : 'not signed in');
  return e.subjectName && e.subjectId !== e.actorId ? `${actor} → ${e.subjectName}` : actor;
}

/** A short browser name from a user agent, so a row fits a phone; the full text is in the title. */
function browserOf(userAgent: string): string {
  const m = /(Edg|Firefox|Chrome|Safari|HeadlessChrome)\/[\d.]+/.exec(userAgent);
  return m ? (m[0].split('.')[0] ?? m[0]) : userAgent.slice(0, 40);
}

export function AuditList({ events, showWho }: { events: AuditEvent[]; showWho: boolean }) {
  const timeZone = useTimeZone();
  return (
    <ul className={styles.list} data-testid="audit-list">
      {events.map((e) => (
        <li key={e.id} className={styles.item} data-testid="audit-row" data-action={e.action}>
          <span className={styles.action}>{AUDIT_ACTION_LABELS[e.action] ?? e.action}</span>
          <time className={styles.when} dateTime={e.at}>
            {formatTradeDate(e.at, timeZone)}
          </time>
          <span className={styles.meta}>
            {[showWho ? whoText(e) : null, e.ip || null, e.userAgent ? browserOf(e.userAgent) : null]
              .filter(Boolean)
              .join(' · ')}
          </span>
          {Object.keys(e.details).length > 0 && <span className={styles.meta}>{detailsText(e.details)}</span>}
        </li>
      ))}
    </ul>
  );
}
