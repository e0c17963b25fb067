import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { hasErrors, validatePasswordChange, type Errors, type PasswordInput } from '../../lib/validation';
import { messageOf } from '../../hooks/errors';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { useServices } from '../../hooks/services';

export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const { actions, auth } = useServices();
  const [v, setV] = useState<PasswordInput>({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors<keyof PasswordInput>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof PasswordInput) => (e: { target: { value: string } }) => {
    setV((x) => ({ ...x, [k]: e.target.value }));
    if (errors[k]) setErrors((er) => ({ ...er, [k]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validatePasswordChange(v);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      const res = await actions.changePassword({ currentPassword: v.currentPassword, newPassword: v.newPassword });
      // The server ends every session on a password change and hands this one a fresh token.
      if (res.token) auth.renewToken(res.token);
      toast.success('Password changed successfully!');
      onClose();
    } catch (err) {
      toast.error(messageOf(err, 'Failed to change password'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title="Change Password" onClose={onClose}>
      <form onSubmit={submit} noValidate style={{ display: 'flex', flexDirection: 'column', gap: '16px' }}>
        <TextField
          label="Current Password"
          type="password"
          autoComplete="current-password"
          value={v.currentPassword}
          onChange={set('currentPassword')}
          error={errors.currentPassword}
        />
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          value={v.newPassword}
          onChange={set('newPassword')}
          error={errors.newPassword}
          hint="At least 8 characters"
        />
        <TextField
          label="Confirm New Password"
          type="password"
          autoComplete="new-password"
          value={v.confirmPassword}
          onChange={set('confirmPassword')}
          error={errors.confirmPassword}
        />
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: '8px' }}>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Changing...' : 'Change Password'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
