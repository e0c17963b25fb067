import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { hasErrors, validateNewUser, type Errors, type NewUserInput } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { serverAnswered } from '../../hooks/errors';
import { useServices } from '../../hooks/services';

export function AddUserModal({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const { actions } = useServices();
  const [v, setV] = useState<NewUserInput>({ username: '', email: '', password: '', role: 'user' });
  const [errors, setErrors] = useState<Errors<keyof NewUserInput>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof NewUserInput) => (e: { target: { value: string } }) => {
    setV((x) => ({ ...x, [k]: e.target.value }));
    if (errors[k]) setErrors((er) => ({ ...er, [k]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateNewUser(v);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    try {
      await actions.createUser({
        username: v.username.trim(),
        email: v.email.trim(),
        password: v.password,
        role: v.role,
      });
      toast.success('User created successfully!');
      onCreated();
      onClose();
    } catch (err) {
      if (serverAnswered(err)) toast.error(err.serverMessage ?? 'Failed to create user');
      else toast.error('Error creating user. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title="Add User" onClose={onClose}>
      <form onSubmit={submit} noValidate style={{ display: 'flex', flexDirection: 'column', gap: '16px' }}>
        <TextField
          label="Username"
          value={v.username}
          onChange={set('username')}
          error={errors.username}
          autoComplete="off"
          required
        />
        <TextField
          label="Email"
          type="email"
          value={v.email}
          onChange={set('email')}
          error={errors.email}
          autoComplete="off"
          required
        />
        <TextField
          label="Password"
          type="password"
          value={v.password}
          onChange={set('password')}
          error={
            errors.password ??
            (v.password.length > 0 && v.password.length < 6 ? 'Password must be at least 6 characters long' : undefined)
          }
          autoComplete="new-password"
          required
        />
        <SelectField label="Role" value={v.role} onChange={set('role')}>
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </SelectField>
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: '8px' }}>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy || v.password.length < 6}>
            {busy ? 'Creating...' : 'Create User'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
