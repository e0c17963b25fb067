import { act, render, screen } from '@testing-library/react';
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { OfflineStatus } from '../../services/offline';
import { OfflineBanner } from './OfflineBanner';
import { coverageText, offlineBannerText } from './offlineText';

describe('offline texts', () => {
  it('the banner names the time of the data shown', () => {
    const at = Date.UTC(2026, 10, 21, 9, 5);
    expect(offlineBannerText(at, 'UTC')).toBe('Offline — showing data from Nov 21, 09:05');
    // In the user's zone, not the device's.
    expect(offlineBannerText(at, 'America/New_York')).toBe('Offline — showing data from Nov 21, 04:05');
    expect(offlineBannerText(null, 'UTC')).toBe('Offline — no data saved on this device yet');
  });

  it('the trades note says how far back the local copy reaches', () => {
    const oldest = new Date(Date.UTC(2026, 10, 20, 14, 3)).toISOString();
    expect(coverageText({ count: 1000, oldest, complete: false }, 'UTC')).toBe(
      'Offline copy: your 1,000 most recent trades, back to Nov 20, 14:03.',
    );
    expect(coverageText({ count: 42, oldest, complete: true }, 'UTC')).toBe(
      'Offline copy: all 42 of your trades, back to Nov 20, 14:03.',
    );
    expect(coverageText(null, 'UTC')).toBe('No trades are saved on this device yet.');
  });
});

describe('OfflineBanner', () => {
  it('appears while offline and goes when the link is back, without a reload', () => {
    const status$ = new BehaviorSubject<OfflineStatus>({ offline: false, dataFrom: null });
    render(<OfflineBanner status$={status$} timeZone="UTC" />);
    expect(screen.queryByTestId('offline-banner')).toBeNull();
    const at = new Date(2026, 10, 21, 9, 5).getTime();
    act(() => status$.next({ offline: true, dataFrom: at }));
    expect(screen.getByRole('status').textContent).toBe('Offline — showing data from Nov 21, 09:05');
    act(() => status$.next({ offline: false, dataFrom: Date.now() }));
    expect(screen.queryByTestId('offline-banner')).toBeNull();
  });
});
