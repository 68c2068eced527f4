import { DEFAULT_USER_QUOTAS } from '@kairos/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, auditRows, call, createStrategy } from './admin-fixtures';

let t: TestApp;
let admin: Session;
let user: Session;
let strategyId: string;
const missing = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  user = await registerUser(t.app);
  strategyId = (await createStrategy(t, admin)).id;
});
afterAll(async () => {
  await t.close();
});

type Case = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  payload?: () => unknown;
  admin: number;
};

/** `:missing` (an id that exists nowhere), `:strategy` and `:user` are filled in once the app runs. */
const resolve = (path: string) =>
  path.replace(':missing', missing).replace(':strategy', strategyId).replace(':user', String(user.user.id));

/** Every admin call, and what an admin gets (past the door: 200, or the call's own answer). */
const cases: Case[] = [
  { method: 'GET', path: '/admin/alerts', admin: 200 },
  { method: 'GET', path: '/admin/alerts/rejections', admin: 200 },
  { method: 'GET', path: '/admin/alerts/:missing', admin: 404 },
  { method: 'POST', path: '/admin/alerts/:missing/dead', payload: () => ({ reason: 'x' }), admin: 404 },
  { method: 'POST', path: '/admin/alerts/:missing/resume', payload: () => ({}), admin: 404 },
  { method: 'GET', path: '/admin/strategies', admin: 200 },
  { method: 'GET', path: '/admin/strategies/:strategy/trades/status', admin: 200 },
  { method: 'POST', path: '/admin/strategies/:strategy/trades/push-to-tp', payload: () => ({}), admin: 200 },
  {
    method: 'POST',
    path: '/admin/strategies/:strategy/trades/close-positions',
    payload: () => ({}),
    admin: 200,
  },
  {
    method: 'POST',
    path: '/admin/strategies/:strategy/trades/cancel-orders',
    payload: () => ({}),
    admin: 200,
  },
  { method: 'GET', path: '/admin/strategies/:strategy/trades/scope?action=push-to-tp', admin: 200 },
  {
    method: 'PUT',
    path: '/admin/strategies/:strategy/status',
    payload: () => ({ status: 'active' }),
    admin: 200,
  },
  { method: 'POST', path: '/admin/bots/:missing/close-position', payload: () => ({}), admin: 404 },
  { method: 'POST', path: '/admin/bots/:missing/pause', payload: () => ({}), admin: 404 },
  { method: 'GET', path: '/admin/billing/users', admin: 200 },
  { method: 'GET', path: '/admin/billing/user?userId=:user', admin: 200 },
  {
    method: 'PUT',
    path: '/admin/billing/user',
    payload: () => ({ userId: user.user.id, percent: 20 }),
    admin: 200,
  },
  { method: 'GET', path: '/admin/billing/records', admin: 200 },
  { method: 'GET', path: '/admin/billing/records/:missing/events', admin: 404 },
  { method: 'GET', path: '/admin/billing/invoices', admin: 200 },
  {
    method: 'POST',
    path: '/admin/billing/monthly/process',
    payload: () => ({ year: 2026, month: 1 }),
    admin: 200,
  },
  {
    method: 'POST',
    path: '/admin/billing/invoice/create',
    payload: () => ({ userId: user.user.id, year: 2026, month: 1 }),
    // Past the door: January has no fee for this user, so there is nothing to invoice.
    admin: 422,
  },
  { method: 'GET', path: '/admin/ledger/adjustments', admin: 200 },
  {
    method: 'POST',
    path: '/admin/ledger/adjustments',
    payload: () => ({ userId: user.user.id, amount: '5', currency: 'USDT', reason: 'goodwill' }),
    admin: 201,
  },
  { method: 'POST', path: '/admin/billing/invoices/:missing/pay', payload: () => ({}), admin: 404 },
  {
    method: 'POST',
    path: '/admin/billing/invoices/:missing/void',
    payload: () => ({ reason: 'duplicate' }),
    admin: 404,
  },
  { method: 'GET', path: '/admin/audit', admin: 200 },
  { method: 'GET', path: '/admin/outbox', admin: 200 },
  { method: 'GET', path: '/admin/settings/quotas', admin: 200 },
  { method: 'PUT', path: '/admin/settings/quotas', payload: () => ({ ...DEFAULT_USER_QUOTAS }), admin: 200 },
  { method: 'GET', path: '/admin/invites', admin: 200 },
  { method: 'POST', path: '/admin/invites', payload: () => ({}), admin: 201 },
  { method: 'DELETE', path: '/admin/invites/:missing', admin: 404 },
];

describe('every admin call is refused to anyone but an admin, on the server', () => {
  it.each(cases.map((c) => [`${c.method} ${c.path}`, c] as const))(
    '%s: anonymous 401, user 403, admin as expected',
    async (_name, c) => {
      const anonymous = await call(t, undefined, c.method, resolve(c.path), c.payload?.());
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ success: false, error: 'UNAUTHORIZED' });

      const asUser = await call(t, user, c.method, resolve(c.path), c.payload?.());
      expect(asUser.status).toBe(403);
      expect(asUser.body).toEqual({
        success: false,
        error: 'FORBIDDEN',
        message: 'Admin role required',
        params: { variant: 'adminRequired' },
      });

      const asAdmin = await call(t, admin, c.method, resolve(c.path), c.payload?.());
      expect(asAdmin.status, JSON.stringify(asAdmin.body)).toBe(c.admin);
      expect(asAdmin.body.success).toBe(c.admin < 400);
    },
  );

  it('publishes every admin call in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const openApiPath = (path: string) => path.split('?')[0]!.replace(/:(missing|strategy)/g, '{id}');
    for (const c of cases) expect(Object.keys(doc.paths)).toContain(openApiPath(c.path));
  });

  it('records who tried to change something they may not', async () => {
    const refused = (await auditRows(t, 'admin.forbidden')).filter((r) => r.actor === `user:${user.user.id}`);
    // One per mutating call above (reads are not logged).
    expect(refused).toHaveLength(cases.filter((c) => c.method !== 'GET').length);
    expect(refused[0]).toMatchObject({ outcome: 'error', error: 'Admin role required' });
    expect(refused.map((r) => r.target)).toContain('POST /admin/alerts/:id/dead');
  });
});
