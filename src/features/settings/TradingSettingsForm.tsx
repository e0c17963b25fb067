import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { PublicUser } from '../../../contract/entities';
import { fundingWarning } from '../../../contract/funding';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import { fieldErrorsOf, messageOf } from '../../hooks/errors';
import { useServices } from '../../hooks/services';
import { useEngineStatus } from '../../hooks/engineStatus';
import { usePairs } from '../../hooks/data';
import { PairPicker } from './PairPicker';
import { TRADING_LIMITS } from '../../../contract/domain';
import { percentOf } from '../../../contract/percent';
import {
  bodyFromForm,
  formFromUser,
  validateTradingForm,
  type TradingForm,
  type TradingFormErrors,
} from './tradingForm';
import * as styles from './settings.css';

export function TradingSettingsForm({ user }: { user: PublicUser }) {
  const { actions, auth } = useServices();
  const status = useEngineStatus();
  const pairs = usePairs();
  const [form, setForm] = useState<TradingForm>(() => formFromUser(user));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<TradingFormErrors>({});
  // After a save: what the balances fund when it is less than the max exposure saved (the size the engine will use).
  const [funding, setFunding] = useState<string | null>(null);
  // The engine may turn trading off by itself (a pause or a halt): the checkbox follows.
  useEffect(() => setForm((f) => ({ ...f, tradingEnabled: user.tradingEnabled })), [user.tradingEnabled]);
  // An error clears as the user edits its field.
  const set = (k: keyof TradingFormErrors) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    setErrors((x) => ({ ...x, [k]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateTradingForm(form);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    // The pairs are sent only where the form offers them (the server trades more than two).
    const body = bodyFromForm(pairs.length > 2 ? form : { ...form, symbols: undefined });
    setBusy(true);
    try {
      const res = await actions.saveTradingSettings(user._id, body);
      auth.updateUser(res.user);
      setFunding(res.funding ? fundingWarning(res.funding) : null);
    } catch (err) {
      // The server's refusal names its field: shown under that field as well as in the toast.
      const fieldOf: Record<string, keyof TradingFormErrors> = {
        maxExposure: 'maxExposure',
        minSpread: 'minSpreadPercent',
        maxLoss: 'maxLoss',
        symbols: 'symbols',
      };
      const marked = fieldErrorsOf(err, fieldOf);
      if (marked) setErrors(marked);
      toast.error(messageOf(err, 'Failed to update trading settings'));
      setBusy(false);
      return;
    }
    // Then join or leave the live trading run according to tradingEnabled (spec section 7).
    if (body.tradingEnabled) {
      try {
        await actions.addToTrading();
        toast.success('Trading settings updated and user added to trading');
      } catch {
        toast.warning('Settings updated but failed to add to trading. Please check your API keys.');
      }
    } else {
      try {
        await actions.removeFromTrading();
        toast.success('Trading settings updated and user removed from trading');
      } catch {
        toast.success('Trading settings updated successfully');
      }
    }
    setBusy(false);
  }

  return (
    // noValidate: the app's inline errors, not the browser's pop-ups (which also refuse 0.25 with a step of 0.1).
    <form className={styles.section} onSubmit={submit} aria-label="Trading settings" noValidate>
      <div className={styles.formGrid}>
        <TextField
          label="Max Exposure (USDT)"
          type="number"
          inputMode="decimal"
          min={TRADING_LIMITS.maxExposure.min}
          max={TRADING_LIMITS.maxExposure.max}
          step="any"
          value={form.maxExposure}
          onChange={set('maxExposure')}
          hint="Largest open notional at any time"
          error={errors.maxExposure}
          required
        />
        <TextField
          label="Min Spread (%)"
          type="number"
          inputMode="decimal"
          min={percentOf(TRADING_LIMITS.minSpread.min)}
          max={percentOf(TRADING_LIMITS.minSpread.max)}
          step="any"
          value={form.minSpreadPercent}
          onChange={set('minSpreadPercent')}
          hint="Trade only when the spread beats this"
          error={errors.minSpreadPercent}
          required
        />
        <TextField
          label="Max Loss (USDT)"
          type="number"
          inputMode="decimal"
          min={TRADING_LIMITS.maxLoss.min}
          max={TRADING_LIMITS.maxLoss.max}
          step="any"
          error={errors.maxLoss}
          value={form.maxLoss}
          onChange={set('maxLoss')}
          hint="Automated trading stops when your realised profit, fees included, since you enabled trading falls this far below its highest point"
          required
        />
      </div>
      {pairs.length > 2 && (
        <PairPicker
          pairs={pairs}
          picked={form.symbols ?? [...pairs]}
          error={errors.symbols}
          onChange={(symbols) => {
            setForm((f) => ({ ...f, symbols }));
            setErrors((x) => ({ ...x, symbols: undefined }));
          }}
        />
      )}
      {status && status.kind !== 'running' && status.kind !== 'off' && (
        <p className={styles.paused} role="status" data-testid="settings-engine-status">
          {status.sentence}{' '}
          {status.kind === 'halted-admin' ? status.remedy : 'Save with automated trading enabled to resume.'}
        </p>
      )}
      {funding && (
        <p className={styles.paused} role="status">
          {funding}
        </p>
      )}
      <Checkbox
        label="Enable Automated Trading"
        checked={form.tradingEnabled}
        onChange={(e) => setForm((f) => ({ ...f, tradingEnabled: e.target.checked }))}
      />
      <div className={styles.actions}>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}
