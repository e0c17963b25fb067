import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { PublicUser } from '../../contract/entities';
import { useAuth, useServices } from '../hooks/services';
import * as common from '../ui/page.css';
import { RecentActivity } from '../features/audit/RecentActivity';
import { TwoFactorCard } from '../features/two-factor/TwoFactorCard';
import { TelegramCard } from '../features/telegram/TelegramCard';
import { TimeZoneCard } from '../features/profile/TimeZoneCard';
import { useTimeZone } from '../hooks/timeZone';
import { ChangePasswordModal } from '../features/profile/ChangePasswordModal';
import { ErrorListToast } from '../features/profile/ErrorListToast';
import * as styles from '../features/profile/profile.css';
import { formatDate, formatRelative } from '../lib/format';
import { validateProfile, type Errors, type ProfileInput } from '../lib/validation';
import * as ui from '../ui/ui.css';
import { ApiError, messageOf } from '../services/http';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { TextArea, TextField } from '../ui/Field';

/** Spec section 9: bio at most 500 characters. */
const BIO_MAX = 500;

const fromUser = (u: PublicUser): ProfileInput => ({
  username: u.username ?? '',
  email: u.email ?? '',
  firstName: u.firstName ?? '',
  lastName: u.lastName ?? '',
  phone: u.phone ?? '',
  bio: u.bio ?? '',
});

export function ProfileScreen() {
  const { user } = useAuth();
  if (!user) return null;
  return <ProfileView user={user} />;
}

function ProfileView({ user }: { user: PublicUser }) {
  const { actions, auth } = useServices();
  const timeZone = useTimeZone();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<ProfileInput>(() => fromUser(user));
  const [busy, setBusy] = useState(false);
  const [pwOpen, setPwOpen] = useState(false);
  /** Each failing field is marked under itself as well as listed in the toast; its mark clears as the user edits it. */
  const [fieldErrors, setFieldErrors] = useState<Errors<keyof ProfileInput>>({});
  const set = (k: keyof ProfileInput) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    setFieldErrors((x) => ({ ...x, [k]: undefined }));
  };

  const cancel = () => {
    setForm(fromUser(user));
    setFieldErrors({});
    setEditing(false);
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    const found = validateProfile(form);
    setFieldErrors(found);
    const errors = Object.values(found).filter((m): m is string => Boolean(m));
    if (errors.length > 0) {
      toast.error(<ErrorListToast heading="Please fix the following errors:" lines={errors} />);
      return;
    }
    setBusy(true);
    try {
      const res = await actions.updateProfile({
        username: form.username.trim(),
        email: form.email.trim(),
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        phone: form.phone.trim(),
        bio: form.bio,
      });
      auth.updateUser(res.user);
      setForm(fromUser(res.user));
      toast.success('Profile updated successfully!');
      setEditing(false);
    } catch (err) {
      if (err instanceof ApiError && err.errors.length > 0) {
        const marked: Errors<keyof ProfileInput> = {};
        for (const item of err.errors)
          if (item.path && item.path in form && !marked[item.path as keyof ProfileInput])
            marked[item.path as keyof ProfileInput] = item.msg;
        setFieldErrors(marked);
        toast.error(<ErrorListToast heading="Validation errors:" lines={err.errors.map((x) => x.msg)} />);
      } else toast.error(messageOf(err, 'Failed to update profile'));
    } finally {
      setBusy(false);
    }
  }

  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <div className={common.stack}>
      <Card>
        <div className={styles.header}>
          <div className={styles.bigAvatar} aria-hidden="true">
            {user.username.charAt(0)}
          </div>
          <div style={{ minWidth: 0 }}>
            <div className={styles.name}>{fullName || user.username}</div>
            <div className={styles.meta}>
              <Badge tone={user.role === 'admin' ? 'primary' : 'neutral'}>{user.role}</Badge>
              <span>Member since {formatDate(user.createdAt, timeZone)}</span>
              <span>Last login {formatRelative(user.lastLogin)}</span>
            </div>
          </div>
        </div>
      </Card>
      <Card
        title="Personal Details"
        action={
          !editing && (
            <div className={styles.actions}>
              <Button variant="secondary" onClick={() => setPwOpen(true)}>
                Change Password
              </Button>
              <Button onClick={() => setEditing(true)}>Edit</Button>
            </div>
          )
        }
      >
        <form onSubmit={save} noValidate>
          <div className={styles.grid}>
            <TextField
              label="Username"
              value={form.username}
              onChange={set('username')}
              readOnly={!editing}
              autoComplete="username"
              error={fieldErrors.username}
            />
            <TextField
              label="Email"
              type="email"
              value={form.email}
              onChange={set('email')}
              readOnly={!editing}
              autoComplete="email"
              error={fieldErrors.email}
            />
            <TextField
              label="First Name"
              value={form.firstName}
              onChange={set('firstName')}
              readOnly={!editing}
              autoComplete="given-name"
              error={fieldErrors.firstName}
            />
            <TextField
              label="Last Name"
              value={form.lastName}
              onChange={set('lastName')}
              readOnly={!editing}
              autoComplete="family-name"
              error={fieldErrors.lastName}
            />
            <TextField
              label="Phone"
              type="tel"
              value={form.phone}
              onChange={set('phone')}
              readOnly={!editing}
              autoComplete="tel"
              error={fieldErrors.phone}
            />
            <div className={styles.full}>
              <TextArea
                label="Bio"
                rows={4}
                value={form.bio}
                onChange={set('bio')}
                readOnly={!editing}
                error={fieldErrors.bio}
                hint={
                  editing ? (
                    // Red past the limit, before the user even presses Save.
                    <span
                      className={form.bio.length > BIO_MAX ? ui.fieldError : undefined}
                      data-testid="bio-counter"
                      data-over={form.bio.length > BIO_MAX}
                    >
                      {form.bio.length}/{BIO_MAX}
                    </span>
                  ) : undefined
                }
              />
            </div>
          </div>
          {editing && (
            <div className={styles.actions} style={{ marginTop: '16px' }}>
              <Button variant="secondary" onClick={cancel}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? 'Saving...' : 'Save Changes'}
              </Button>
            </div>
          )}
        </form>
      </Card>
      <TimeZoneCard />
      <TwoFactorCard />
      <TelegramCard />
      <RecentActivity />
      {pwOpen && <ChangePasswordModal onClose={() => setPwOpen(false)} />}
    </div>
  );
}
