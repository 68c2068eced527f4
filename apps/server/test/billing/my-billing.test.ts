import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, call } from '../admin/admin-fixtures';

/** GET /api/billing (issue 21): a user reads their own plan, months billed and invoices, nobody else's. */
let t: TestApp;
let admin: Session;
let ada: Session;
let bob: Session;

const lastMonth = () => {
  const d = new Date();
  const at = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 10, 12));
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, at };
};

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  [ada, bob] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
});
afterAll(() => t.close());

describe('GET /api/billing', () => {
  it('says there is no plan and nothing billed for a new user', async () => {
    const res = await call(t, ada, 'GET', '/api/billing');
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ plan: null, months: [], invoices: [] });
    expect(res.body.results.currentMonth).toMatchObject({ profit: '0', estimatedFee: '0' });
  });

  it("gives the user their plan, each month billed and its invoice, without the admin's side", async () => {
    const account = await createPaperAccount(t.app, ada);
    const m = lastMonth();
    await t.db.pool.query(
      `INSERT INTO trades (user_id, trading_account_id, symbol, side, status, quantity, realised_pnl, opened_at, closed_at)
       VALUES ($1, $2, 'BTC/USDT', 'long', 'closed', '0.1', '500', $3, $4)`,
      [ada.user.id, account.id, new Date(m.at.getTime() - 3_600_000), m.at],
    );
    const plan = await call(t, admin, 'PUT', '/admin/billing/user', { userId: ada.user.id, percent: '20' });
    expect(plan.status).toBe(200);
    expect(
      (await call(t, admin, 'POST', '/admin/billing/monthly/process', { year: m.year, month: m.month }))
        .status,
    ).toBe(200);
    const invoice = await call(t, admin, 'POST', '/admin/billing/invoice/create', {
      userId: ada.user.id,
      year: m.year,
      month: m.month,
    });
    expect(invoice.status).toBeLessThan(300);

    const res = await call(t, ada, 'GET', '/api/billing');
    expect(res.status).toBe(200);
    const mine = res.body.results;
    expect(mine.plan).toMatchObject({ percent: '20', active: true });
    expect(mine.months).toHaveLength(1);
    expect(mine.months[0]).toMatchObject({
      year: m.year,
      month: m.month,
      profit: '500',
      fee: '100',
      status: 'invoiced',
    });
    expect(mine.invoices).toHaveLength(1);
    expect(mine.invoices[0]).toMatchObject({ amount: '100', currency: 'USDT', status: 'open' });
    const text = JSON.stringify(mine);
    for (const hidden of ['userId', 'userEmail', 'provider', ada.email]) expect(text).not.toContain(hidden);

    // Bob sees his own (nothing), never Ada's.
    const his = await call(t, bob, 'GET', '/api/billing');
    expect(his.body.results).toMatchObject({ plan: null, months: [], invoices: [] });
  });

  it('is refused without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/billing' })).statusCode).toBe(401);
  });
});
