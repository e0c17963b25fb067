import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { SymbolId } from '../../../contract/domain';
import { usePairs } from '../../hooks/data';
import { useAuth } from '../../hooks/services';
import { messageOf } from '../../hooks/errors';
import { showTradeToast } from '../toasts/tradeToast';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { useServices } from '../../hooks/services';
import * as common from '../../ui/page.css';

/** A manual trade: the engine opens it on the same path and within the same limits as an automated one. */
export function ManualTradeForm() {
  const { actions } = useServices();
  const { user } = useAuth();
  // The user's own pairs: the engine refuses a trade on any other.
  const serverPairs = usePairs();
  const pairs = user?.symbols ?? serverPairs;
  const [picked, setSymbol] = useState<SymbolId | null>(null);
  const symbol = picked !== null && pairs.includes(picked) ? picked : (pairs[0] ?? 'BTC/USDT');
  const [amount, setAmount] = useState('100');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const totalAmount = Number(amount);
    if (!Number.isFinite(totalAmount) || totalAmount <= 0) {
      toast.error('Amount must be more than 0');
      return;
    }
    setBusy(true);
    try {
      const { trade } = await actions.createTrade({ symbol, totalAmount });
      // The same toast as the trade's realtime events (one toast per trade).
      showTradeToast(trade._id, 'Trade created successfully', 'success');
    } catch (err) {
      toast.error(messageOf(err, 'Failed to create trade'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={common.toolbar} onSubmit={submit} aria-label="Manual trade" noValidate>
      <div className={common.toolbarItem}>
        <SelectField label="Pair to trade" value={symbol} onChange={(e) => setSymbol(e.target.value as SymbolId)}>
          {pairs.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
      </div>
      <div className={common.toolbarItem}>
        <TextField
          label="Amount (USDT)"
          type="number"
          min={1}
          step="any"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </div>
      <Button type="submit" disabled={busy}>
        {busy ? 'Placing...' : 'Place Trade'}
      </Button>
    </form>
  );
}
