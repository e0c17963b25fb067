import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { ApiKeysBody } from '../../../contract/api';
import type { PublicUser } from '../../../contract/entities';
import { messageOf } from '../../hooks/errors';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { useServices } from '../../hooks/services';
import { useMarket } from '../../hooks/data';
import { binanceKeyProblem } from '../../../contract/binance-keys';
import { DerivKeysForm } from './DerivKeysForm';
import * as styles from './settings.css';

const savedHint = (has: boolean, masked: string) =>
  has ? `Saved (${masked}). Leave empty to keep it.` : 'Not saved yet';

/** Secrets are write-only: fields start empty; an empty field leaves the saved value unchanged. Deriv's part is its own. */
export function ApiKeysForm({ user }: { user: PublicUser }) {
  const { actions, auth } = useServices();
  const [binanceApiKey, setApiKey] = useState('');
  const [binanceSecretKey, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const { value: market } = useMarket();
  // The contract's shape rules, the same messages the server's schema gives.
  const errors = {
    binanceApiKey: binanceKeyProblem(binanceApiKey.trim(), 'API key') ?? undefined,
    binanceSecretKey: binanceKeyProblem(binanceSecretKey.trim(), 'secret key') ?? undefined,
  };
  const [shown, setShown] = useState(false);

  async function save(body: ApiKeysBody) {
    const filled = Object.fromEntries(
      Object.entries(body).filter(([, v]) => v !== undefined && v !== ''),
    ) as ApiKeysBody;
    if (Object.keys(filled).length === 0) {
      toast.error('Enter the Binance API key and secret key to save');
      return;
    }
    setShown(true);
    if (errors.binanceApiKey || errors.binanceSecretKey) return;
    setBusy(true);
    try {
      const res = await actions.saveApiKeys(user._id, filled);
      auth.updateUser(res.user);
      toast.success('API keys updated successfully');
      setApiKey('');
      setSecret('');
      setShown(false);
    } catch (err) {
      toast.error(messageOf(err, 'Failed to update API keys'));
    } finally {
      setBusy(false);
    }
  }

  const [testing, setTesting] = useState(false);
  /** Tests the saved Binance keys (Deriv's part tests its own). */
  async function test() {
    setTesting(true);
    try {
      const res = await actions.testConnection({ exchange: 'binance' });
      // On the simulated market the answer says what was (and was not) checked; the live answer is the spec's.
      toast.success(market?.kind === 'sim' ? res.message : 'Binance connection successful');
    } catch (err) {
      toast.error(messageOf(err, 'Connection test failed'));
    } finally {
      setTesting(false);
    }
  }

  const onKeys = (e: FormEvent) => {
    e.preventDefault();
    void save({ binanceApiKey: binanceApiKey.trim(), binanceSecretKey: binanceSecretKey.trim() });
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
            error={shown ? errors.binanceApiKey : undefined}
            hint={savedHint(user.hasBinanceApiKey, user.binanceApiKey)}
            placeholder={user.binanceApiKey || 'Enter API key'}
          />
          <TextField
            label="Binance Secret Key"
            type="password"
            autoComplete="off"
            value={binanceSecretKey}
            onChange={(e) => setSecret(e.target.value)}
            error={shown ? errors.binanceSecretKey : undefined}
            hint={savedHint(user.hasBinanceSecretKey, user.binanceSecretKey)}
            placeholder={user.binanceSecretKey || 'Enter secret key'}
          />
        </div>
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => void test()} disabled={testing}>
            {testing ? 'Testing...' : 'Test Connection'}
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : 'Save Keys'}
          </Button>
        </div>
      </form>
      <DerivKeysForm user={user} />
    </div>
  );
}
