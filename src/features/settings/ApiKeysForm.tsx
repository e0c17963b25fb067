import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { ApiKeysBody } from '../../../contract/api';
import type { PublicUser } from '../../../contract/entities';
import { messageOf } from '../../services/http';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { useServices } from '../../hooks/services';
import * as styles from './settings.css';

const savedHint = (has: boolean, masked: string) =>
  has ? `Saved (${masked}). Leave empty to keep it.` : 'Not saved yet';

/** Secrets are write-only: fields start empty; an empty field leaves the saved value unchanged. */
export function ApiKeysForm({ user }: { user: PublicUser }) {
  const { actions, auth } = useServices();
  const [binanceApiKey, setApiKey] = useState('');
  const [binanceSecretKey, setSecret] = useState('');
  const [derivToken, setToken] = useState('');
  const [derivAppId, setAppId] = useState(user.derivAppId ?? '');
  const [busy, setBusy] = useState<'keys' | 'token' | null>(null);

  async function save(which: 'keys' | 'token', body: ApiKeysBody) {
    const filled = Object.fromEntries(
      Object.entries(body).filter(([, v]) => v !== undefined && v !== ''),
    ) as ApiKeysBody;
    if (Object.keys(filled).length === 0) {
      toast.error(
        which === 'keys'
          ? 'Enter the Binance API key and secret key to save'
          : 'Enter the Deriv API token or app ID to save',
      );
      return;
    }
    setBusy(which);
    try {
      const res = await actions.saveApiKeys(user._id, filled);
      auth.updateUser(res.user);
      toast.success('API keys updated successfully');
      if (which === 'keys') {
        setApiKey('');
        setSecret('');
      } else setToken('');
    } catch (err) {
      toast.error(messageOf(err, 'Failed to update API keys'));
    } finally {
      setBusy(null);
    }
  }

  const [testing, setTesting] = useState<'binance' | 'deriv' | null>(null);
  /** Tests the saved credentials of one venue. */
  async function test(exchange: 'binance' | 'deriv') {
    setTesting(exchange);
    try {
      await actions.testConnection({ exchange });
      toast.success(`${exchange === 'binance' ? 'Binance' : 'Deriv'} connection successful`);
    } catch (err) {
      toast.error(messageOf(err, 'Connection test failed'));
    } finally {
      setTesting(null);
    }
  }

  const onKeys = (e: FormEvent) => {
    e.preventDefault();
    void save('keys', { binanceApiKey: binanceApiKey.trim(), binanceSecretKey: binanceSecretKey.trim() });
  };
  const onToken = (e: FormEvent) => {
    e.preventDefault();
    void save('token', { derivToken: derivToken.trim(), derivAppId: derivAppId.trim() });
  };

  return (
    <div className={styles.section}>
      <form className={styles.section} onSubmit={onKeys} aria-label="Binance keys" noValidate>
        <h2 className={styles.sectionTitle}>Binance</h2>
        <div className={styles.formGrid}>
          <TextField
            label="Binance API Key"
            type="password"
            autoComplete="off"
            value={binanceApiKey}
            onChange={(e) => setApiKey(e.target.value)}
            hint={savedHint(user.hasBinanceApiKey, user.binanceApiKey)}
            placeholder={user.binanceApiKey || 'Enter API key'}
          />
          <TextField
            label="Binance Secret Key"
            type="password"
            autoComplete="off"
            value={binanceSecretKey}
            onChange={(e) => setSecret(e.target.value)}
            hint={savedHint(user.hasBinanceSecretKey, user.binanceSecretKey)}
            placeholder={user.binanceSecretKey || 'Enter secret key'}
          />
        </div>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => void test('binance')} disabled={testing !== null}>
            {testing === 'binance' ? 'Testing...' : 'Test Connection'}
          </Button>
          <Button type="submit" disabled={busy !== null}>
            {busy === 'keys' ? 'Saving...' : 'Save Keys'}
          </Button>
        </div>
      </form>
      <form className={styles.section} onSubmit={onToken} aria-label="Deriv token" noValidate>
        <h2 className={styles.sectionTitle}>Deriv</h2>
        <div className={styles.formGrid}>
          <TextField
            label="Deriv API Token"
            type="password"
            autoComplete="off"
            value={derivToken}
            onChange={(e) => setToken(e.target.value)}
            hint={savedHint(user.hasDerivToken, user.derivToken)}
            placeholder={user.derivToken || 'Enter API token'}
          />
          <TextField
            label="Deriv App ID"
            inputMode="numeric"
            value={derivAppId}
            onChange={(e) => setAppId(e.target.value)}
            placeholder="e.g. 1089"
          />
        </div>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => void test('deriv')} disabled={testing !== null}>
            {testing === 'deriv' ? 'Testing...' : 'Test Connection'}
          </Button>
          <Button type="submit" disabled={busy !== null}>
            {busy === 'token' ? 'Saving...' : 'Save Token'}
          </Button>
        </div>
      </form>
    </div>
  );
}
