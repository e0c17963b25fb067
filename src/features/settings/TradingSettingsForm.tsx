import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { PublicUser } from '../../../contract/entities';
import { messageOf } from '../../services/http';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import { useServices } from '../../hooks/services';
import { bodyFromForm, formFromUser, type TradingForm } from './tradingForm';
import * as styles from './settings.css';

export function TradingSettingsForm({ user }: { user: PublicUser }) {
  const { actions, auth } = useServices();
  const [form, setForm] = useState<TradingForm>(() => formFromUser(user));
  const [busy, setBusy] = useState(false);
  // The engine may turn trading off by itself (a pause or a halt): the checkbox follows.
  useEffect(() => setForm((f) => ({ ...f, tradingEnabled: user.tradingEnabled })), [user.tradingEnabled]);
  const set = (k: keyof TradingForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const body = bodyFromForm(form);
    setBusy(true);
    try {
      const res = await actions.saveTradingSettings(user._id, body);
      auth.updateUser(res.user);
    } catch (err) {
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
    <form className={styles.section} onSubmit={submit} aria-label="Trading settings">
      <div className={styles.formGrid}>
        <TextField label="Max Exposure (USDT)" type="number" min={0} step={100} value={form.maxExposure} onChange={set('maxExposure')} hint="Largest open notional at any time" required />
        <TextField label="Min Spread (%)" type="number" min={0} max={10} step={0.1} value={form.minSpreadPercent} onChange={set('minSpreadPercent')} hint="Trade only when the spread beats this" required />
        <TextField
          label="Max Loss (USDT)"
          type="number"
          min={0}
          step={10}
          value={form.maxLoss}
          onChange={set('maxLoss')}
          hint="Automated trading stops when your realised profit, fees included, since you enabled trading falls this far below its highest point"
          required
        />
      </div>
      {user.tradingPausedAt && !user.tradingEnabled && (
        <p className={styles.paused} role="status">
          Trading stopped: {user.tradingPauseReason ?? 'by the engine'}. Save with automated trading enabled to resume.
        </p>
      )}
      <Checkbox label="Enable Automated Trading" checked={form.tradingEnabled} onChange={(e) => setForm((f) => ({ ...f, tradingEnabled: e.target.checked }))} />
      <div className={styles.actions}>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}
