import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { ApiKeysBody } from '../../../contract/api';
import { derivStatusLine } from '../../../contract/deriv';
import type { PublicUser } from '../../../contract/entities';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { fieldErrorsOf, messageOf } from '../../hooks/errors';
import { useServices } from '../../hooks/services';
import {
  accountFigures,
  APP_ID_HINT,
  DERIV_FIELDS,
  derivFormErrors,
  derivLinkOf,
  derivSaveBody,
  TOKEN_HINT,
  type DerivFormErrors,
} from './derivForm';
import * as styles from './settings.css';

/**
 * Deriv's token (a personal access token or a legacy API token), its app ID, which API and account are in use as
 * Deriv last said, and the choice among the accounts a personal access token reaches. The token is write-only.
 */
export function DerivKeysForm({ user }: { user: PublicUser }) {
  const { actions, auth } = useServices();
  const link = derivLinkOf(user);
  const [token, setToken] = useState('');
  const [appId, setAppId] = useState(user.derivAppId ?? '');
  const [errors, setErrors] = useState<DerivFormErrors>({});
  const [busy, setBusy] = useState<'save' | 'test' | 'choose' | null>(null);
  const [picked, setPicked] = useState(link.accountId);

  async function save(e: FormEvent) {
    e.preventDefault();
    const found = derivFormErrors({ token, appId });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = derivSaveBody({ token, appId }, user.derivAppId ?? '');
    if (Object.keys(body).length === 0) {
      toast.error('Enter the Deriv token or app ID to save');
      return;
    }
    if (await send(body, 'save', 'API keys updated successfully')) setToken('');
  }

  async function send(body: ApiKeysBody, which: 'save' | 'choose', done: string): Promise<boolean> {
    setBusy(which);
    try {
      const res = await actions.saveApiKeys(user._id, body);
      auth.updateUser(res.user);
      setPicked(derivLinkOf(res.user).accountId);
      toast.success(done);
      return true;
    } catch (err) {
      const marked = fieldErrorsOf(err, DERIV_FIELDS);
      if (marked) setErrors(marked);
      toast.error(messageOf(err, 'Failed to update API keys'));
      return false;
    } finally {
      setBusy(null);
    }
  }

  /** Tests the saved token: the server finds out its API and accounts, and the answer updates what is shown. */
  async function test() {
    setBusy('test');
    try {
      const res = await actions.testConnection({ exchange: 'deriv' });
      if (res.deriv) {
        auth.updateUser({ deriv: res.deriv });
        setPicked(res.deriv.accountId);
      }
      toast.success(res.message);
    } catch (err) {
      toast.error(messageOf(err, 'Connection test failed'));
    } finally {
      setBusy(null);
    }
  }

  const choosing = link.api === 'new' && link.accounts.length > 0;
  const savedHint = user.hasDerivToken ? `Saved (${user.derivToken}). Leave empty to keep it.` : 'Not saved yet.';

  return (
    <form className={styles.section} onSubmit={(e) => void save(e)} aria-label="Deriv keys" noValidate>
      <h2 className={styles.sectionTitle}>Deriv</h2>
      <p className={styles.derivStatus} data-testid="deriv-status" aria-live="polite">
        {derivStatusLine(link)}
      </p>
      <div className={styles.formGrid}>
        <TextField
          label="Deriv Token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => {
            setToken(e.target.value);
            setErrors((x) => ({ ...x, token: undefined }));
          }}
          hint={`${TOKEN_HINT} ${savedHint}`}
          error={errors.token}
          placeholder={user.derivToken || 'Paste the token'}
        />
        <TextField
          label="Deriv App ID"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={appId}
          onChange={(e) => {
            setAppId(e.target.value);
            setErrors((x) => ({ ...x, appId: undefined }));
          }}
          hint={APP_ID_HINT}
          error={errors.appId}
          placeholder="e.g. Qx7Lm2Np9Rs4Tv6Wy8Za1"
        />
      </div>
      {choosing && (
        <fieldset className={styles.accounts}>
          <legend className={styles.accountsLegend}>Account to trade</legend>
          {link.accounts.map((a) => (
            <label key={a.accountId} className={styles.accountRow}>
              <input
                type="radio"
                name="derivAccount"
                value={a.accountId}
                checked={picked === a.accountId}
                disabled={a.status === 'inactive'}
                onChange={() => setPicked(a.accountId)}
              />
              <Badge tone={a.type === 'real' ? 'warning' : 'primary'}>{a.type}</Badge>
              <span className={styles.accountFigures}>{accountFigures(a)}</span>
              {a.status === 'inactive' && <span className={styles.note}>inactive</span>}
            </label>
          ))}
          <div className={styles.actions}>
            <Button
              variant="secondary"
              disabled={busy !== null || !picked || picked === link.accountId}
              onClick={() => void send({ derivAccountId: picked }, 'choose', `Deriv account ${picked} will be traded`)}
            >
              {busy === 'choose' ? 'Saving...' : 'Trade This Account'}
            </Button>
          </div>
        </fieldset>
      )}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => void test()} disabled={busy !== null}>
          {busy === 'test' ? 'Testing...' : 'Test Connection'}
        </Button>
        <Button type="submit" disabled={busy !== null}>
          {busy === 'save' ? 'Saving...' : 'Save Token'}
        </Button>
      </div>
    </form>
  );
}
