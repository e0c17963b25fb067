import { useState, type FormEvent } from 'react';
import type { PublicUser } from '../../../contract/entities';
import { useSession } from '../../hooks/services';
import { showNotice, SIGN_IN_ERROR_KEY } from '../toasts/notices';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';

const CODE = /^(\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/i;

/** Sign-in's second step: the code from the authenticator app, or one of the recovery codes. */
export function SecondStep({
  challenge,
  onDone,
  onRestart,
}: {
  challenge: string;
  onDone: (user: PublicUser) => unknown;
  onRestart: () => void;
}) {
  const { auth } = useSession();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const clean = code.replace(/\s+/g, '');
    if (!CODE.test(clean)) {
      setError('Enter the 6-digit code from your authenticator app or a recovery code');
      return;
    }
    setBusy(true);
    try {
      const result = await auth.loginWithCode(challenge, clean);
      if (!result.ok) {
        setError(result.message);
        if (/expired/.test(result.message)) onRestart();
        return;
      }
      showNotice({ level: 'success', key: SIGN_IN_ERROR_KEY, message: 'Login successful!' });
      await onDone(result.user);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate style={{ display: 'flex', flexDirection: 'column', gap: '16px' }}>
      <TextField
        label="Authentication code"
        name="code"
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus
        value={code}
        onChange={(e) => {
          setCode(e.target.value);
          setError(undefined);
        }}
        error={error}
        hint="The 6-digit code from your authenticator app, or a recovery code"
      />
      <Button type="submit" disabled={busy}>
        {busy ? 'Checking...' : 'Verify'}
      </Button>
      <Button type="button" variant="ghost" onClick={onRestart}>
        Back to password
      </Button>
    </form>
  );
}
