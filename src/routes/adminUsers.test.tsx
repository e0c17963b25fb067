import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, testUser } from '../../tests/setup/renderApp';

const admin = testUser({ _id: '00000000-0000-4000-8000-0000000000aa', username: 'boss', role: 'admin' });
const other = testUser({ _id: '00000000-0000-4000-8000-0000000000bb', username: 'worker' });

describe('Admin users screen', () => {
  it('offers Reset 2FA only for users who have two-factor sign-in, and stops offering it after a reset', async () => {
    const ui = userEvent.setup();
    let workerHas = true;
    renderApp('/admin/users', {
      user: admin,
      handler: (m, p) => {
        if (m === 'GET' && p === '/api/admin/users')
          return {
            body: {
              success: true,
              users: [
                { ...admin, twoFactorEnabled: false },
                { ...other, twoFactorEnabled: workerHas },
              ],
            },
          };
        if (m === 'POST' && p === `/api/admin/users/${other._id}/2fa/reset`) {
          workerHas = false;
          return { body: { success: true, message: 'Two-factor sign-in reset' } };
        }
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Reset 2FA of worker' }));
    expect(screen.queryByRole('button', { name: 'Reset 2FA of boss' })).toBeNull();
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Two-factor sign-in reset')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Reset 2FA of worker' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Deactivate worker' })).toBeTruthy();
  });

  it('non-admins see Access Denied', async () => {
    renderApp('/admin/users', { user: testUser() });
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(screen.getByText("You don't have permission to access this page.")).toBeTruthy();
  });

  it('shows each server instance with the engine shards it trades, and the shards nobody trades', async () => {
    renderApp('/admin/users', {
      user: admin,
      handler: (m, p) => {
        if (p === '/api/admin/users') return { body: { success: true, users: [admin] } };
        if (p !== '/api/admin/engine') return undefined;
        const started = '2026-11-26T20:00:00.000Z';
        const instance = { started, engine: true, self: false };
        return {
          body: {
            success: true,
            shardCount: 4,
            unheld: [3],
            instances: [
              { ...instance, id: '11111111-0000-4000-8000-000000000001', host: 'node-a', shards: [0, 2], self: true },
              { ...instance, id: '22222222-0000-4000-8000-000000000002', host: 'node-b', shards: [1] },
              { ...instance, id: '33333333-0000-4000-8000-000000000003', host: 'node-c', shards: [], engine: false },
            ],
          },
        };
      },
    });
    const card = await screen.findByTestId('engine-instances');
    expect(await within(card).findByText('Shards 0, 2')).toBeTruthy();
    expect(within(card).getByText('Shard 1')).toBeTruthy();
    expect(within(card).getByText('Engine off')).toBeTruthy();
    expect(within(card).getByText('this server')).toBeTruthy();
    expect(card.textContent).toContain('Users are split into 4 shards');
    expect(card.textContent).toContain('Not traded right now: shard 3.');
  });

  it('lists the pairs the product knows, which the venues offer and which this server trades', async () => {
    const pair = (symbol: string, name: string, offered: boolean, enabled: boolean) => ({
      symbol,
      name,
      binance: true,
      deriv: offered,
      enabled,
    });
    renderApp('/admin/users', {
      user: admin,
      handler: (_m, p) => {
        if (p === '/api/admin/users') return { body: { success: true, users: [admin] } };
        if (p !== '/api/admin/pairs') return undefined;
        return {
          body: {
            success: true,
            market: 'live',
            pairs: [
              pair('BTC/USDT', 'Bitcoin', true, true),
              pair('LTC/USDT', 'Litecoin', true, false),
              pair('SOL/USDT', 'Solana', false, false),
            ],
          },
        };
      },
    });
    const card = await screen.findByTestId('admin-pairs');
    expect(await within(card).findByText('1 of 3 pairs enabled', { exact: false })).toBeTruthy();
    expect(within(within(card).getByTestId('admin-pair-BTC/USDT')).getByText('Enabled')).toBeTruthy();
    expect(within(within(card).getByTestId('admin-pair-LTC/USDT')).getByText('Available')).toBeTruthy();
    const sol = within(card).getByTestId('admin-pair-SOL/USDT');
    expect(within(sol).getByText('Not offered')).toBeTruthy();
    expect(sol.textContent).toContain('Deriv does not offer it');
  });

  it('add user: required fields, password minimum with submit disabled below 6, role default user', async () => {
    const ui = userEvent.setup();
    const { calls } = renderApp('/admin/users', {
      user: admin,
      handler: (m, p, body) => {
        if (p !== '/api/admin/users') return undefined;
        if (m === 'GET') return { body: { success: true, users: [admin, other] } };
        return { body: { success: true, user: { ...other, ...(body as object) }, message: 'created' } };
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog');
    const create = within(dialog).getByRole('button', { name: 'Create User' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    await ui.type(within(dialog).getByLabelText('Password'), '12345');
    expect(within(dialog).getByText('Password must be at least 6 characters long')).toBeTruthy();
    expect(create.disabled).toBe(true);
    await ui.type(within(dialog).getByLabelText('Password'), '6');
    expect(create.disabled).toBe(false);
    await ui.click(create);
    expect(within(dialog).getByText('Username is required')).toBeTruthy();
    expect(within(dialog).getByText('Email is required')).toBeTruthy();
    await ui.type(within(dialog).getByLabelText('Username'), 'newbie');
    await ui.type(within(dialog).getByLabelText('Email'), 'newbie@example.com');
    await ui.click(create);
    expect(await screen.findByText('User created successfully!')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/admin/users')?.body).toEqual({
      username: 'newbie',
      email: 'newbie@example.com',
      password: '123456',
      role: 'user',
    });
  });

  it('toggle updates the row from the returned user; delete asks with the confirm text', async () => {
    const ui = userEvent.setup();
    let users = [admin, other];
    const { calls } = renderApp('/admin/users', {
      user: admin,
      handler: (m, p) => {
        if (m === 'GET' && p === '/api/admin/users') return { body: { success: true, users } };
        if (m === 'PUT' && p.endsWith('/toggle-active'))
          return { body: { success: true, user: { ...other, isActive: false } } };
        if (m === 'DELETE') {
          users = [admin];
          return { body: { success: true, message: 'deleted' } };
        }
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Deactivate worker' }));
    expect((await screen.findAllByText('inactive')).length).toBeGreaterThan(0);
    await ui.click(screen.getByRole('button', { name: 'Delete worker' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Are you sure you want to delete this user? This action cannot be undone.'),
    ).toBeTruthy();
    // The dialog names whom it deletes.
    expect(within(dialog).getByTestId('confirm-subject').textContent).toBe(`worker (${other.email})`);
    await ui.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('worker')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/api/admin/users/${other._id}`)).toBe(true);
  });

  it('delete of a user with open trades shows the server message in the dialog and offers to close them first', async () => {
    const ui = userEvent.setup();
    const refusal =
      'This user has 2 open trades. They must be closed before the account can be deleted: delete with closeTrades=true to close them now.';
    let deletes = 0;
    const { calls } = renderApp('/admin/users', {
      user: admin,
      handler: (m, p) => {
        if (m === 'GET' && p === '/api/admin/users') return { body: { success: true, users: [admin, other] } };
        // the first asks plainly and is refused; the second asks to close the trades first
        if (m === 'DELETE')
          return ++deletes === 1
            ? { status: 409, body: { success: false, message: refusal } }
            : { body: { success: true, message: 'User deleted successfully (2 open trades closed first)' } };
        return undefined;
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Delete worker' }));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(refusal)).toBeTruthy();
    await ui.click(within(dialog).getByRole('button', { name: 'Close trades and delete' }));
    expect(await screen.findByText('User deleted successfully!')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `/api/admin/users/${other._id}`,
      `/api/admin/users/${other._id}?closeTrades=true`,
    ]);
  });
});
