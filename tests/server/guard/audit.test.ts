// The audit log over the real database: what the routes record (and never record), who may read it, the filters,
// and that rows can be neither edited nor deleted except by the retention prune.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../contract/guard';
import { pruneAuditEvents } from '../../../server/db/repositories/audit';
import { auditEvents } from '../../../server/db/schema';
import { backends, createTestApp, type TestApp } from '../helpers/app';

describe.each(backends)('audit log on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The database's own message for a refused statement (drizzle wraps it). */
  const refusal = async (statement: SQL): Promise<string> => {
    try {
      await t.db.execute(statement);
      return 'accepted';
    } catch (error) {
      const e = error as { message: string; cause?: { message?: string } };
      return e.cause?.message ?? e.message;
    }
  };

  const adminAudit = async (query: string) => {
    const res = await t.request('GET', `/api/admin/audit${query}`, { token: t.admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { events: AuditEvent[]; pagination: { total: number; pages: number; current: number } };
  };

  it('records sign-ins, failures and profile changes with who, where and from which browser', async () => {
    const u = await t.createUser();
    const wrong = await t.request('POST', '/api/auth/login', {
      body: { username: u.user.email, password: 'not-it-at-all' },
      headers: { 'user-agent': 'TestPhone/1.0' },
    });
    expect(wrong.statusCode).toBe(401);
    const ok = await t.request('POST', '/api/auth/login', {
      body: { username: u.user.email, password: u.password },
      headers: { 'user-agent': 'TestPhone/1.0' },
    });
    expect(ok.statusCode).toBe(200);
    await t.request('PUT', '/api/auth/profile', {
      token: u.token,
      body: { username: u.user.username, email: u.user.email, bio: 'hi' },
    });

    const mine = await t.request('GET', '/api/auth/activity', { token: u.token });
    expect(mine.statusCode).toBe(200);
    const events = (mine.json() as { events: AuditEvent[] }).events;
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['sign_in_failed', 'sign_in', 'profile_updated']));
    const failed = events.find((e) => e.action === 'sign_in_failed');
    expect(failed).toMatchObject({
      actorId: null,
      subjectId: u.user._id,
      subjectName: u.user.username,
      ip: '127.0.0.1',
      userAgent: 'TestPhone/1.0',
      details: { reason: 'wrong password' },
    });
    expect(events.find((e) => e.action === 'profile_updated')?.details).toEqual({
      fields: ['username', 'email', 'bio'],
    });
  });

  it('never stores a password or key value', async () => {
    const u = await t.createUser();
    // A password typed into the e-mail field is not kept; an unknown e-mail is.
    await t.login('Typed-Into-The-Wrong-Field-1', 'whatever-else');
    await t.login('nobody@example.test', 'whatever-else');
    const unknown = (await t.db.select().from(auditEvents)).filter(
      (r) => r.action === 'sign_in_failed' && r.subjectId === null,
    );
    expect(unknown.map((r) => r.subjectName)).toEqual(expect.arrayContaining(['', 'nobody@example.test']));
    await t.request('PUT', `/api/users/${u.user._id}/api-keys`, {
      token: u.token,
      body: { binanceApiKey: 'SECRETKEYVALUE123', derivToken: '' },
    });
    await t.request('PUT', '/api/auth/change-password', {
      token: u.token,
      body: { currentPassword: u.password, newPassword: 'brand-new-password-9' },
    });
    const rows = await t.db.select().from(auditEvents);
    const text = JSON.stringify(rows);
    for (const secret of [
      'SECRETKEYVALUE123',
      u.password,
      'brand-new-password-9',
      'Typed-Into-The-Wrong-Field-1',
      'whatever-else',
    ])
      expect(text).not.toContain(secret);
    const saved = rows.find((r) => r.action === 'api_keys_saved' && r.subjectId === u.user._id);
    expect(saved?.details).toEqual({ fields: { binanceApiKey: 'saved', derivToken: 'removed' } });
    expect(rows.some((r) => r.action === 'password_changed' && r.subjectId === u.user._id)).toBe(true);
  });

  it('records admin actions with the admin as actor and the user as subject, also after the user is deleted', async () => {
    const u = await t.createUser();
    expect(
      (await t.request('PUT', `/api/admin/users/${u.user._id}/toggle-active`, { token: t.admin.token })).statusCode,
    ).toBe(200);
    expect((await t.request('DELETE', `/api/admin/users/${u.user._id}`, { token: t.admin.token })).statusCode).toBe(
      200,
    );
    const { events } = await adminAudit(`?user=${encodeURIComponent(u.user.username)}`);
    const byAction = new Map(events.map((e) => [e.action, e]));
    expect(byAction.get('user_deactivated')).toMatchObject({
      actorId: t.admin.user._id,
      actorName: t.admin.user.username,
      subjectId: u.user._id,
    });
    expect(byAction.get('user_deleted')).toMatchObject({
      subjectName: u.user.username,
      details: { email: u.user.email, tradesClosed: 0 },
    });
    expect(byAction.has('user_created')).toBe(true);
  });

  it('filters by action and date, pages, and answers bad filters clearly', async () => {
    const all = await adminAudit('?action=sign_in&limit=1&page=1');
    expect(all.events).toHaveLength(1);
    expect(all.events[0]?.action).toBe('sign_in');
    expect(all.pagination.pages).toBe(all.pagination.total);
    const second = await adminAudit('?action=sign_in&limit=1&page=2');
    expect(second.events[0]?.id).not.toBe(all.events[0]?.id);
    const future = await adminAudit(`?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`);
    expect(future.events).toEqual([]);

    for (const [query, message] of [
      ['?action=drop_tables', 'action is not a known audit action'],
      ['?user=%00x', 'user must not contain control characters'],
      ['?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from must not be after to'],
      ['?limit=1000', 'limit must be at most 100'],
    ] as const) {
      const res = await t.request('GET', `/api/admin/audit${query}`, { token: t.admin.token });
      expect(res.statusCode, query).toBe(400);
      expect(JSON.stringify(res.json())).toContain(message);
    }
  });

  it('refuses the admin screen to a user and shows a user only their own activity', async () => {
    const [a, b] = [await t.createUser(), await t.createUser()];
    expect((await t.request('GET', '/api/admin/audit', { token: a.token })).statusCode).toBe(403);
    const own = (await t.request('GET', '/api/auth/activity?limit=100', { token: a.token })).json() as {
      events: AuditEvent[];
    };
    expect(own.events.length).toBeGreaterThan(0);
    expect(own.events.every((e) => e.subjectId === a.user._id)).toBe(true);
    expect(own.events.some((e) => e.subjectId === b.user._id)).toBe(false);
  });

  it('is append-only: UPDATE, DELETE and TRUNCATE are refused; only the retention prune removes old rows', async () => {
    await expect(refusal(sql`UPDATE audit_events SET action = 'sign_in'`)).resolves.toMatch(
      /append-only \(UPDATE refused\)/,
    );
    await expect(refusal(sql`DELETE FROM audit_events`)).resolves.toMatch(/append-only \(DELETE refused\)/);
    await expect(refusal(sql`TRUNCATE audit_events`)).resolves.toMatch(/append-only \(TRUNCATE refused\)/);
    const before = (await t.db.select().from(auditEvents)).length;
    await t.db
      .insert(auditEvents)
      .values({ action: 'sign_in', at: new Date(Date.now() - 400 * 24 * 3600 * 1000), subjectName: 'old' });
    expect(await pruneAuditEvents(t.db, t.config.auditRetentionDays)).toBe(1);
    expect((await t.db.select().from(auditEvents)).length).toBe(before);
    // The prune's permission ended with its transaction.
    await expect(refusal(sql`DELETE FROM audit_events`)).resolves.toMatch(/append-only/);
  });
});
