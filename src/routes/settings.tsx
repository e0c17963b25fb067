import { useState, type KeyboardEvent } from 'react';
import { useAuth } from '../hooks/services';
import { BacktestPanel } from '../features/backtest/BacktestPanel';
import { ApiKeysForm } from '../features/settings/ApiKeysForm';
import { SimKeysNote } from '../features/settings/SimKeysNote';
import * as styles from '../features/settings/settings.css';
import { NotificationsForm } from '../features/settings/NotificationsForm';
import { TradingSettingsForm } from '../features/settings/TradingSettingsForm';
import { DeviceNotifications } from '../features/settings/DeviceNotifications';
import { Card } from '../ui/Card';

const TABS = [
  { id: 'keys', label: 'API Keys' },
  { id: 'trading', label: 'Trading' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'backtest', label: 'Backtest' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function SettingsScreen() {
  const { user } = useAuth();
  const [tab, setTab] = useState<TabId>('keys');
  if (!user) return null;

  // Arrow keys move between tabs, wrapping around (WAI-ARIA tabs pattern).
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const at = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(at + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]?.id ?? 'keys';
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };

  return (
    <Card>
      <div role="tablist" aria-label="Settings" className={styles.tabs} onKeyDown={onKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            role="tab"
            type="button"
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className={styles.tab}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'keys' ? (
          <>
            <SimKeysNote />
            <ApiKeysForm user={user} />
          </>
        ) : tab === 'trading' ? (
          <TradingSettingsForm user={user} />
        ) : tab === 'notifications' ? (
          <div className={styles.section}>
            <NotificationsForm user={user} />
            <DeviceNotifications />
          </div>
        ) : (
          <BacktestPanel user={user} />
        )}
      </div>
    </Card>
  );
}
