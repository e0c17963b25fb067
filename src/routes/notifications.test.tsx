import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { NotificationsResponse, SentNotification } from '../../contract/notification-history';
import { renderApp, testUser } from '../../tests/setup/renderApp';
import { createUserCache } from '../cache/db';
import type { ServerEvent } from '../services/realtime/socketLink';

const sent = (n: number, patch: Partial<SentNotification> = {}): SentNotification => ({
  _id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  kind: 'tradeCompleted',
  title: `Closed — converged: BTC/USDT +${n}.00 USDT`,
  body: `T-${n} · 100 USDT automated trade · converged`,
  url: '/trades',
  sentAt: new Date(Date.UTC(2026, 10, 20, 10, n)).toISOString(),
  readAt: null,
  ...patch,
});
const userWithId = (n: number) => testUser({ _id: `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}` });
const bell = () => screen.getByTestId('notification-bell');

describe('notifications history', () => {
  it('lists what the user was sent with the unread count on the bell; a new one shows live; Mark all as read', async () => {
    const events = new Subject<ServerEvent>();
    const ui = userEvent.setup();
    const page: NotificationsResponse = {
      success: true,
      notifications: [sent(2), sent(1, { readAt: '2026-11-20T11:00:00.000Z' })],
      unread: 1,
      nextCursor: null,
    };
    const { calls } = renderApp('/dashboard', {
      user: userWithId(11),
      events,
      handler: (method, path) => {
        if (method === 'GET' && path === '/api/notifications') return { body: page };
        if (method === 'POST' && path === '/api/notifications/read-all')
          return { body: { success: true, marked: 2, unread: 0 } };
        return undefined;
      },
    });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications: 1 unread'));

    // Reachable from the user menu as well as the bell.
    await ui.click(screen.getByRole('button', { name: /User menu/ }));
    await ui.click(screen.getByRole('menuitem', { name: 'Notifications' }));
    const list = await screen.findByTestId('notification-list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('a')?.textContent),
    ).toEqual([sent(2).title, sent(1).title]);
    expect(within(list).getByText(sent(2).body)).toBeTruthy();
    expect(screen.getByTestId('unread-count').textContent).toBe('1 unread');

    act(() => events.next({ name: 'notification', payload: sent(3, { title: 'Automated trading: Paused' }) }));
    expect(await within(list).findByText('Automated trading: Paused')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toContain('Automated trading: Paused');
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications: 2 unread'));

    await ui.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByTestId('unread-count').textContent).toBe('All read'));
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    expect(list.querySelectorAll('[data-unread="true"]')).toHaveLength(0);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/notifications/read-all']);
  });

  it('opening one marks it read; Show older appends the next page by its cursor', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/notifications', {
      user: userWithId(12),
      handler: (method, path, body) => {
        if (method === 'POST' && path === '/api/notifications/read') {
          expect(body).toEqual({ ids: [sent(5)._id] });
          return { body: { success: true, marked: 1, unread: 0 } };
        }
        if (method === 'GET' && path === '/api/notifications') {
          const older = calls.at(-1)?.path.includes('cursor=41');
          return {
            body: older
              ? { success: true, notifications: [sent(4, { readAt: sent(4).sentAt })], unread: 1, nextCursor: null }
              : { success: true, notifications: [sent(5)], unread: 1, nextCursor: '41' },
          };
        }
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Show older' }));
    expect(await screen.findByText(sent(4).title)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();

    await ui.click(screen.getByRole('link', { name: sent(5).title }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/notifications/read')).toBe(true));
  });

  it('reads offline from the copy on this device, saying so', async () => {
    const user = userWithId(13);
    await createUserCache(user._id).writeSnapshot('notifications', {
      items: [sent(7, { title: 'Automated trading: Halted by an admin' })],
      unread: 1,
      nextCursor: null,
    });
    renderApp('/notifications', {
      user,
      handler: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(await screen.findByText('Automated trading: Halted by an admin')).toBeTruthy();
    expect(screen.getByText(/Shown from this device's copy/)).toBeTruthy();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications: 1 unread'));
  });
});
