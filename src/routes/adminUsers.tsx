import { useObservable, useObservableState } from 'observable-hooks';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { catchError, debounceTime, from, map, of, switchMap } from 'rxjs';
import type { Role } from '../../contract/domain';
import type { AdminListedUser } from '../../contract/api';
import { AddUserModal } from '../features/admin/AddUserModal';
import { BackupCard } from '../features/admin/BackupCard';
import { ConfirmDialog } from '../features/admin/ConfirmDialog';
import { EngineCard } from '../features/admin/EngineCard';
import { PairsCard } from '../features/admin/PairsCard';
import { searchItem } from '../features/admin/admin.css';
import { UsersTable } from '../features/admin/UsersTable';
import { GlobalHaltCard } from '../features/kill-switch/GlobalHaltCard';
import { useAuth, useServices } from '../hooks/services';
import * as common from '../ui/page.css';
import { ApiError } from '../services/http';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { SelectField, TextField } from '../ui/Field';
import * as ui from '../ui/ui.css';

export function AdminUsersScreen() {
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
  return <UserManagement selfId={user._id} />;
}

const failed = (err: unknown, failure: string, error: string) =>
  err instanceof ApiError && err.status !== 0 ? (err.serverMessage ?? failure) : error;

function UserManagement({ selfId }: { selfId: string }) {
  const { actions } = useServices();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const [version, setVersion] = useState(0);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<AdminListedUser | null>(null);
  /** The server's refusal (the user has open trades): shown in the dialog, which then offers to close them. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const [resetting, setResetting] = useState<AdminListedUser | null>(null);
  const [overrides, setOverrides] = useState<Record<string, AdminListedUser>>({});

  // A failed list load gives an empty list (spec section 8).
  const users$ = useObservable(
    (inputs$) =>
      inputs$.pipe(
        debounceTime(200),
        switchMap(([s, r]) =>
          from(actions.listUsers({ search: s.trim() || undefined, role: r || undefined })).pipe(
            map((res) => res.users),
            catchError(() => of<AdminListedUser[]>([])),
          ),
        ),
      ),
    [search, role, version],
  );
  const loaded = useObservableState(users$, null);
  const users = (loaded ?? []).map((u) => overrides[u._id] ?? u);
  const reload = () => {
    setOverrides({});
    setVersion((v) => v + 1);
  };

  async function toggle(u: AdminListedUser) {
    try {
      const res = await actions.toggleUserActive(u._id);
      setOverrides((o) => ({ ...o, [u._id]: { ...u, ...res.user } }));
    } catch (err) {
      toast.error(
        failed(err, 'Failed to update user status. Please try again.', 'Error updating user status. Please try again.'),
      );
    }
  }

  const closeDialog = () => {
    setDeleting(null);
    setRefusal(null);
  };

  async function resetTwoFactor() {
    if (!resetting) return;
    try {
      toast.success((await actions.resetUserTwoFactor(resetting._id)).message);
      // They no longer have two-factor sign-in: the list loads again and stops offering Reset 2FA.
      reload();
    } catch (err) {
      toast.error(
        failed(
          err,
          'Failed to reset two-factor sign-in. Please try again.',
          'Error resetting two-factor sign-in. Please try again.',
        ),
      );
    }
    setResetting(null);
  }

  async function remove() {
    if (!deleting) return;
    try {
      await actions.deleteUser(deleting._id, { closeTrades: refusal !== null });
      toast.success('User deleted successfully!');
      reload();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.serverMessage) {
        setRefusal(err.serverMessage);
        return;
      }
      toast.error(failed(err, 'Failed to delete user. Please try again.', 'Error deleting user. Please try again.'));
    }
    closeDialog();
  }

  return (
    <div className={common.stack}>
      <GlobalHaltCard />
      <Card title="Users" action={<Button onClick={() => setAdding(true)}>Add User</Button>}>
        <div className={common.toolbar} style={{ marginBottom: '16px' }}>
          <div className={searchItem}>
            <TextField
              label="Search"
              type="search"
              placeholder="Search by username"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <div className={common.toolbarItem}>
            <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as Role | '')}>
              <option value="">All Roles</option>
              <option value="admin">Admin</option>
              <option value="user">User</option>
            </SelectField>
          </div>
        </div>
        {loaded === null ? (
          <div className={ui.empty}>Loading users...</div>
        ) : users.length === 0 ? (
          <div className={ui.empty}>No users found</div>
        ) : (
          <UsersTable
            users={users}
            selfId={selfId}
            onToggle={(u) => void toggle(u)}
            onDelete={setDeleting}
            onResetTwoFactor={setResetting}
          />
        )}
      </Card>
      <EngineCard />
      <PairsCard />
      <BackupCard />
      {adding && <AddUserModal onClose={() => setAdding(false)} onCreated={reload} />}
      {resetting && (
        <ConfirmDialog
          title="Reset two-factor sign-in"
          text={`${resetting.username} will sign in with the password alone and can set up two-factor sign-in again. Continue?`}
          confirmLabel="Reset"
          onConfirm={() => void resetTwoFactor()}
          onCancel={() => setResetting(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete User"
          subject={`${deleting.username} (${deleting.email})`}
          text="Are you sure you want to delete this user? This action cannot be undone."
          note={refusal}
          confirmLabel={refusal ? 'Close trades and delete' : 'Delete'}
          onConfirm={() => void remove()}
          onCancel={closeDialog}
        />
      )}
    </div>
  );
}
