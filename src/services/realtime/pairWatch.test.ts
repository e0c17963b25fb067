import { screen, waitFor } from '@testing-library/react';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../../tests/setup/renderApp';
import { createPairWatch, unionOfShown } from './pairWatch';

describe('the pairs the screens show', () => {
  it('is the union of what each shows, in the catalogue order; every pair once any screen shows every pair', () => {
    expect(unionOfShown([])).toEqual([]);
    expect(unionOfShown([['LTC/USDT'], ['ETH/USDT', 'LTC/USDT']])).toEqual(['ETH/USDT', 'LTC/USDT']);
    expect(unionOfShown([['LTC/USDT'], 'all'])).toBeNull();
  });

  it('tells the link the outcome of a change of screen once, and what remains when a screen goes', async () => {
    const watch = createPairWatch();
    const heard: Array<string[] | null> = [];
    const sub = watch.watched$.subscribe((p) => heard.push(p));
    await firstValueFrom(watch.watched$);
    // One screen goes and the next comes in the same task: only the outcome is told.
    const leaveTrades = watch.show([]);
    leaveTrades();
    const leaveDashboard = watch.show('all');
    const leaveDetail = watch.show(['ETH/USDT']);
    await new Promise((r) => setTimeout(r, 0));
    leaveDashboard();
    await new Promise((r) => setTimeout(r, 0));
    leaveDetail();
    await new Promise((r) => setTimeout(r, 0));
    sub.unsubscribe();
    expect(heard).toEqual([[], null, ['ETH/USDT'], []]);
  });

  it('asks for every pair on the Dashboard and Balances, and for none on Trades', async () => {
    const { services, router } = renderApp('/dashboard', { user: testUser() });
    await screen.findByTestId('stat-win-rate');
    await waitFor(async () => expect(await firstValueFrom(services.pairWatch.watched$)).toBeNull());
    await router.navigate({ to: '/trades' });
    await waitFor(async () => expect(await firstValueFrom(services.pairWatch.watched$)).toEqual([]));
    await router.navigate({ to: '/balances' });
    await waitFor(async () => expect(await firstValueFrom(services.pairWatch.watched$)).toBeNull());
  });
});
