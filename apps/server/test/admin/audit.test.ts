import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, call } from './admin-fixtures';

/** The admin's audit log screen reads GET /admin/audit (issue 21): filters by action or family, actor, dates. */
let t: TestApp;
let admin: Session;
let user: Session;

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  user = await registerUser(t.app);
  const insert = (actor: string, email: string | null, action: string, at: string) =>
    t.db.pool.query(
      `INSERT INTO audit_log (actor_id, actor, actor_email, action, target, outcome, at)
       VALUES ($1, $2, $3, $4, 'user:x', 'ok', $5)`,
      [email ? admin.user.id : null, actor, email, action, at],
    );
  await insert(`admin:${admin.user.id}`, ADMIN_EMAIL, 'billing.plan_update', '2026-03-01T10:00:00Z');
  await insert(`admin:${admin.user.id}`, ADMIN_EMAIL, 'billing.invoice_pay', '2026-03-05T10:00:00Z');
  await insert(`admin:${admin.user.id}`, ADMIN_EMAIL, 'alert.mark_dead', '2026-03-10T10:00:00Z');
  await insert('system', null, 'billing.monthly_process', '2026-04-01T00:05:00Z');
  await insert(`admin:${admin.user.id}`, ADMIN_EMAIL, 'billing_x.odd', '2026-04-02T00:00:00Z');
});
afterAll(() => t.close());

const actions = (body: { results: { action: string }[] }) => body.results.map((r) => r.action);

describe('GET /admin/audit', () => {
  it('lists every entry newest first, paged', async () => {
    const all = await call(t, admin, 'GET', '/admin/audit?take=2');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 5, skip: 0, take: 2 });
    expect(actions(all.body)).toEqual(['billing_x.odd', 'billing.monthly_process']);
    const next = await call(t, admin, 'GET', '/admin/audit?take=2&skip=4');
    expect(actions(next.body)).toEqual(['billing.plan_update']);
  });

  it('filters by an action or its family (billing: billing.*, not billing_x)', async () => {
    const family = await call(t, admin, 'GET', '/admin/audit?action=billing');
    expect(actions(family.body)).toEqual([
      'billing.monthly_process',
      'billing.invoice_pay',
      'billing.plan_update',
    ]);
    const one = await call(t, admin, 'GET', '/admin/audit?action=billing.invoice_pay');
    expect(one.body.total).toBe(1);
    expect((await call(t, admin, 'GET', '/admin/audit?action=billing_')).body.total).toBe(0);
  });

  it('filters by a part of the actor, any case, and by dates', async () => {
    const system = await call(t, admin, 'GET', '/admin/audit?actor=SYSTEM');
    expect(actions(system.body)).toEqual(['billing.monthly_process']);
    const byEmail = await call(t, admin, 'GET', `/admin/audit?actor=${encodeURIComponent('operator@')}`);
    expect(byEmail.body.total).toBe(4);
    const march = await call(
      t,
      admin,
      'GET',
      '/admin/audit?from=2026-03-02T00:00:00Z&to=2026-03-31T23:59:59.999Z',
    );
    expect(actions(march.body)).toEqual(['alert.mark_dead', 'billing.invoice_pay']);
    expect((await call(t, admin, 'GET', '/admin/audit?from=yesterday')).status).toBe(400);
    expect((await call(t, admin, 'GET', '/admin/audit?actor=%25')).body.total).toBe(0);
  });

  it('is refused to a user', async () => {
    expect((await call(t, user, 'GET', '/admin/audit')).status).toBe(403);
  });
});
