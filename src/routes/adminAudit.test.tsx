import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../contract/guard';
import { renderApp, testUser } from '../../tests/setup/renderApp';

const event = (id: number): AuditEvent => ({
  id,
  at: '2026-01-01T00:00:00.000Z',
  action: 'sign_in',
  actorId: null,
  actorName: 'trader',
  subjectId: null,
  subjectName: 'trader',
  ip: '127.0.0.1',
  userAgent: 'test',
  details: {},
});

const page = (total: number, limit: number) => ({
  body: {
    success: true,
    events: Array.from({ length: limit }, (_, i) => event(i + 1)),
    pagination: { current: 1, pages: Math.ceil(total / limit), total },
  },
});

describe('audit pagers', () => {
  it('count events, not trades, in the Audit Log', async () => {
    renderApp('/admin/audit', {
      user: testUser({ role: 'admin' }),
      handler: (_m, p) => (p === '/api/admin/audit' ? page(988, 20) : undefined),
    });
    expect((await screen.findByTestId('pagination-text')).textContent).toBe('Showing 1 to 20 of 988 events');
  });

  it('in Profile too', async () => {
    renderApp('/profile', {
      user: testUser(),
      handler: (_m, p) => (p === '/api/auth/activity' ? page(35, 10) : undefined),
    });
    expect((await screen.findByTestId('pagination-text')).textContent).toBe('Showing 1 to 10 of 35 events');
  });
});

describe('audit details', () => {
  it('show percent fields as the app does: minSpread 0.002 reads 0.2%', async () => {
    renderApp('/admin/audit', {
      user: testUser({ role: 'admin' }),
      handler: (_m, p) =>
        p === '/api/admin/audit'
          ? {
              body: {
                success: true,
                events: [
                  {
                    ...event(1),
                    action: 'trading_settings_saved',
                    details: { maxExposure: 500, minSpread: 0.002, maxLoss: 50 },
                  },
                ],
                pagination: { current: 1, pages: 1, total: 1 },
              },
            }
          : undefined,
    });
    expect(await screen.findByText('maxExposure: 500 · minSpread: 0.2% · maxLoss: 50')).toBeTruthy();
  });
});
