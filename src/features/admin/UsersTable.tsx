import type { AdminListedUser } from '../../../contract/api';
import { formatRelative } from '../../lib/format';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import * as cards from '../../ui/cardTable.css';
import * as ui from '../../ui/ui.css';
import * as styles from './admin.css';

/** A table on wide screens; below `md` every user is a card (name, e-mail, role, status, last login, actions). */
export function UsersTable({
  users,
  selfId,
  onToggle,
  onDelete,
  onResetTwoFactor,
}: {
  users: AdminListedUser[];
  selfId: string;
  onToggle: (u: AdminListedUser) => void;
  onDelete: (u: AdminListedUser) => void;
  /** A user who lost their phone: their two-factor sign-in is removed (offered only to users who have it). */
  onResetTwoFactor: (u: AdminListedUser) => void;
}) {
  return (
    <div className={ui.tableWrap}>
      <table className={`${ui.table} ${cards.cardTable}`} data-testid="users-table">
        <thead className={cards.hiddenHeader}>
          <tr>
            <th className={ui.th}>User</th>
            <th className={ui.th}>Role</th>
            <th className={ui.th}>Status</th>
            <th className={ui.th}>Last Login</th>
            <th className={ui.th} style={{ textAlign: 'right' }}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u._id} data-testid="user-row" data-username={u.username} className={styles.userCardRow}>
              <td className={`${ui.td} ${styles.cell.user}`}>
                <div style={{ fontWeight: 650 }}>{u.username}</div>
                <div className={ui.muted} style={{ fontSize: '13px', overflowWrap: 'anywhere' }}>
                  {u.email}
                </div>
                <div className={ui.showSm} aria-hidden="true">
                  <Badge tone={u.role === 'admin' ? 'primary' : 'neutral'}>{u.role}</Badge>
                  <Badge tone={u.isActive ? 'profit' : 'loss'}>{u.isActive ? 'active' : 'inactive'}</Badge>
                </div>
              </td>
              <td className={`${ui.td} ${styles.wideOnly}`}>
                <Badge tone={u.role === 'admin' ? 'primary' : 'neutral'}>{u.role}</Badge>
              </td>
              <td className={`${ui.td} ${styles.wideOnly}`}>
                <Badge tone={u.isActive ? 'profit' : 'loss'}>{u.isActive ? 'active' : 'inactive'}</Badge>
              </td>
              <td className={`${ui.td} ${ui.muted} ${styles.cell.login}`} data-label="Last login">
                {formatRelative(u.lastLogin)}
              </td>
              <td className={`${ui.td} ${styles.cell.actions}`} style={{ textAlign: 'right' }}>
                {u.twoFactorEnabled && (
                  <>
                    <Button
                      small
                      variant="secondary"
                      onClick={() => onResetTwoFactor(u)}
                      disabled={u._id === selfId}
                      aria-label={`Reset 2FA of ${u.username}`}
                    >
                      Reset 2FA
                    </Button>{' '}
                  </>
                )}
                <Button
                  small
                  variant="secondary"
                  onClick={() => onToggle(u)}
                  disabled={u._id === selfId}
                  aria-label={`${u.isActive ? 'Deactivate' : 'Activate'} ${u.username}`}
                >
                  {u.isActive ? 'Deactivate' : 'Activate'}
                </Button>{' '}
                <Button
                  small
                  variant="danger"
                  onClick={() => onDelete(u)}
                  disabled={u._id === selfId}
                  aria-label={`Delete ${u.username}`}
                >
                  Delete
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
