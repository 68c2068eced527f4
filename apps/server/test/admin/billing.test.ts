import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/modules/audit/audit-service';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, auditRows, call } from './admin-fixtures';

let t: TestApp;
let admin: Session;
/** dave 20%, erin 10% with auto charge, frank no plan, gwen 30% but inactive */
const users: Record<string, Session> = {};
const accounts: Record<string, string> = {};

/** The four months of the story, the last one being last month, and the month in progress. */
function monthsAgo(n: number) {
  const d = new Date();
  const at = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1));
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, start: at };
}
const [M1, M2, M3, M4, NOW] = [monthsAgo(4), monthsAgo(3), monthsAgo(2), monthsAgo(1), monthsAgo(0)];
const period = (m: { year: number; month: number }) => ({ year: m.year, month: m.month });
const label = (m: { year: number; month: number }) => `${m.year}-${String(m.month).padStart(2, '0')}`;
const dayOf = (m: { start: Date }, day: number, hour = 12) =>
  new Date(m.start.getTime() + (day - 1) * 86_400_000 + hour * 3_600_000);

/** Past trades are history to arrange, not something to drive through the engine. */
async function closedTrade(who: string, pnl: string, closedAt: Date, status = 'closed') {
  await t.db.pool.query(
    `INSERT INTO trades (user_id, trading_account_id, symbol, side, status, quantity, realised_pnl, opened_at, closed_at)
     VALUES ($1, $2, 'BTC/USDT', 'long', $3, '0.1', $4, $5, $6)`,
    [
      users[who]!.user.id,
      accounts[who],
      status,
      status === 'closed' ? pnl : null,
      new Date(closedAt.getTime() - 3_600_000),
      status === 'open' ? null : closedAt,
    ],
  );
}

const processMonth = (m: { year: number; month: number }) =>
  call(t, admin, 'POST', '/admin/billing/monthly/process', period(m));
const records = async (query = '') => (await call(t, admin, 'GET', `/admin/billing/records${query}`)).body;
const recordOf = async (who: string, m: { year: number; month: number }) =>
  (await records(`?userId=${users[who]!.user.id}&year=${m.year}&month=${m.month}`)).results[0];
const createInvoice = (who: string, m: { year: number; month: number }) =>
  call(t, admin, 'POST', '/admin/billing/invoice/create', { userId: users[who]!.user.id, ...period(m) });

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  for (const name of ['dave', 'erin', 'frank', 'gwen']) {
    users[name] = await registerUser(t.app, `${name}@example.com`);
    accounts[name] = (await createPaperAccount(t.app, users[name]!)).id;
  }
  // Dave: a profit, a loss (closed on the first instant of M2), a partial recovery, then new profit.
  await closedTrade('dave', '1200', dayOf(M1, 3));
  await closedTrade('dave', '-200', dayOf(M1, 20));
  await closedTrade('dave', '-400', M2.start);
  await closedTrade('dave', '300', dayOf(M3, 10));
  await closedTrade('dave', '500', dayOf(M4, 28));
  await closedTrade('dave', '100', NOW.start);
  await closedTrade('dave', '0', dayOf(M1, 5), 'open'); // still open: not billed
  await closedTrade('erin', '50', dayOf(M1, 15));
  await closedTrade('frank', '700', dayOf(M1, 15));
  await closedTrade('gwen', '100', dayOf(M1, 15));
});
afterAll(async () => {
  await t.close();
});

describe('plans', () => {
  it('creates and edits a plan per user', async () => {
    for (const [who, body] of [
      ['dave', { percent: 20 }],
      ['erin', { percent: '10', autoCharge: true }],
      ['gwen', { percent: 30, active: false }],
    ] as const) {
      const res = await call(t, admin, 'PUT', '/admin/billing/user', {
        userId: users[who]!.user.id,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const erin = (
      await call(t, admin, 'PUT', '/admin/billing/user', { userId: users.erin!.user.id, active: true })
    ).body.results;
    expect(erin).toMatchObject({
      email: 'erin@example.com',
      plan: { percent: '10', active: true, autoCharge: true },
    });
  });

  it('needs a percent to create a plan, and a percent between 0 and 100', async () => {
    const none = await call(t, admin, 'PUT', '/admin/billing/user', {
      userId: users.frank!.user.id,
      active: true,
    });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('Set a plan percent to create the plan');
    const tooMuch = await call(t, admin, 'PUT', '/admin/billing/user', {
      userId: users.frank!.user.id,
      percent: 150,
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toBe('Plan percent must be between 0 and 100');
    const nobody = await call(t, admin, 'PUT', '/admin/billing/user', {
      userId: '00000000-0000-4000-8000-000000000000',
      percent: 10,
    });
    expect(nobody.status).toBe(404);
  });
});

describe('monthly processing — the worked example', () => {
  it(`M1: a profit is billed in full above a zero high-water mark`, async () => {
    const res = await processMonth(M1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toEqual({
      ...period(M1),
      created: 4,
      unchanged: 0,
      skipped: 0,
      totalProfit: '1850',
      totalFees: '205',
      invoicesCreated: 1,
    });
    expect(await recordOf('dave', M1)).toMatchObject({
      profit: '1000',
      cumulativeProfitBefore: '0',
      cumulativeProfit: '1000',
      highWaterMarkBefore: '0',
      highWaterMarkAfter: '1000',
      percent: '20',
      feeableProfit: '1000',
      fee: '200',
      status: 'pending',
      invoiceId: null,
    });
    // No plan, or a plan switched off: recorded (the mark rises) but nothing is due.
    expect(await recordOf('frank', M1)).toMatchObject({
      profit: '700',
      highWaterMarkAfter: '700',
      fee: '0',
      status: 'waived',
    });
    expect(await recordOf('gwen', M1)).toMatchObject({ fee: '0', status: 'waived' });
  });

  it('auto charge opens an invoice through the manual provider, which leaves it open for an admin', async () => {
    const erin = await recordOf('erin', M1);
    expect(erin).toMatchObject({ fee: '5', status: 'invoiced' });
    const invoices = (await call(t, admin, 'GET', `/admin/billing/invoices?userId=${users.erin!.user.id}`))
      .body;
    expect(invoices.total).toBe(1);
    expect(invoices.results[0]).toMatchObject({
      id: erin.invoiceId,
      amount: '5',
      currency: 'USDT',
      status: 'open',
      provider: 'manual',
      providerReference: null,
      paidAt: null,
      ...period(M1),
    });
    expect(invoices.results[0].number).toMatch(
      new RegExp(`^INV-${M1.year}${String(M1.month).padStart(2, '0')}-\\d{6}$`),
    );
  });

  it('processing the same month twice changes nothing', async () => {
    const before = await records(`?year=${M1.year}&month=${M1.month}`);
    const invoicesBefore = (await call(t, admin, 'GET', '/admin/billing/invoices')).body;
    const again = await processMonth(M1);
    expect(again.body.results).toMatchObject({
      created: 0,
      unchanged: 4,
      totalFees: '205',
      invoicesCreated: 0,
    });
    expect(await records(`?year=${M1.year}&month=${M1.month}`)).toEqual(before);
    expect((await call(t, admin, 'GET', '/admin/billing/invoices')).body).toEqual(invoicesBefore);
  });

  it('a month left out is caught up in order: M3 processed first writes M2 then M3', async () => {
    const res = await processMonth(M3);
    expect(res.body.results).toMatchObject({ created: 8, unchanged: 0, totalProfit: '300', totalFees: '0' });
    // M2: a loss. Cumulative profit falls below the mark: no fee, the loss carries forward.
    expect(await recordOf('dave', M2)).toMatchObject({
      profit: '-400',
      cumulativeProfitBefore: '1000',
      cumulativeProfit: '600',
      highWaterMarkBefore: '1000',
      highWaterMarkAfter: '1000',
      feeableProfit: '0',
      fee: '0',
      status: 'no_fee',
    });
    // M3: a partial recovery, still under the mark: still no fee.
    expect(await recordOf('dave', M3)).toMatchObject({
      profit: '300',
      cumulativeProfit: '900',
      highWaterMarkAfter: '1000',
      fee: '0',
      status: 'no_fee',
    });
    expect((await processMonth(M2)).body.results).toMatchObject({ created: 0, unchanged: 4 });
  });

  it('M4 (the scheduled job on the 1st): only profit above the high-water mark is billed', async () => {
    const result = await t.app.services.billing.processPreviousMonth(SYSTEM_ACTOR);
    expect(result).toMatchObject({ ...period(M4), created: 4, totalProfit: '500', totalFees: '80' });
    expect(await recordOf('dave', M4)).toMatchObject({
      profit: '500',
      cumulativeProfitBefore: '900',
      cumulativeProfit: '1400',
      highWaterMarkBefore: '1000',
      highWaterMarkAfter: '1400',
      feeableProfit: '400',
      fee: '80',
      status: 'pending',
    });
    const daveFees = (await records(`?userId=${users.dave!.user.id}`)).results.map(
      (r: { fee: string }) => r.fee,
    );
    expect(daveFees).toEqual(['80', '0', '0', '200']);
    const job = (await auditRows(t, 'billing.monthly_process')).at(-1)!;
    expect(job).toMatchObject({
      actor: 'system',
      actor_id: null,
      target: `billing:${label(M4)}`,
      outcome: 'ok',
    });
  });

  it('refuses a month that is not over', async () => {
    const res = await processMonth(NOW);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'PERIOD_NOT_OVER', message: `${label(NOW)} is not over yet` });
    expect(
      (await call(t, admin, 'POST', '/admin/billing/monthly/process', { year: 2026, month: 13 })).status,
    ).toBe(400);
  });
});

describe('invoices', () => {
  let daveM1: string;

  it('creates one invoice per user and month; asking again returns the same one', async () => {
    const first = await createInvoice('dave', M1);
    expect(first.status).toBe(201);
    expect(first.body.results).toMatchObject({
      created: true,
      invoice: { amount: '200', status: 'open', userEmail: 'dave@example.com' },
    });
    daveM1 = first.body.results.invoice.id;
    const again = await createInvoice('dave', M1);
    expect(again.status).toBe(200);
    expect(again.body.results).toMatchObject({ created: false, invoice: { id: daveM1 } });
    expect((await recordOf('dave', M1)).status).toBe('invoiced');
  });

  it('refuses a month with no fee or not processed yet', async () => {
    const noFee = await createInvoice('dave', M2);
    expect(noFee.status).toBe(422);
    expect(noFee.body.message).toBe(`Nothing to invoice for ${label(M2)}: no fee is due`);
    const notYet = await createInvoice('dave', { year: 2020, month: 1 });
    expect(notYet.status).toBe(422);
    expect(notYet.body.message).toBe('2020-01 is not processed yet for this user');
  });

  it('records a manual payment once', async () => {
    const paid = await call(t, admin, 'POST', `/admin/billing/invoices/${daveM1}/pay`, {
      reference: 'bank-123',
    });
    expect(paid.status).toBe(200);
    expect(paid.body.results).toMatchObject({ status: 'paid', providerReference: 'bank-123' });
    expect(paid.body.results.paidAt).not.toBeNull();
    expect((await recordOf('dave', M1)).status).toBe('paid');
    const twice = await call(t, admin, 'POST', `/admin/billing/invoices/${daveM1}/pay`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This invoice is already paid');
    const voidPaid = await call(t, admin, 'POST', `/admin/billing/invoices/${daveM1}/void`, {
      reason: 'oops',
    });
    expect(voidPaid.status).toBe(409);
    expect(voidPaid.body.message).toBe('A paid invoice cannot be voided');
  });

  it('voids an unpaid invoice, after which the month can be invoiced again', async () => {
    const erin = await recordOf('erin', M1);
    const voided = await call(t, admin, 'POST', `/admin/billing/invoices/${erin.invoiceId}/void`, {
      reason: 'wrong currency',
    });
    expect(voided.body.results).toMatchObject({ status: 'void', voidReason: 'wrong currency' });
    expect(await recordOf('erin', M1)).toMatchObject({ status: 'pending', invoiceId: null });
    const fresh = await call(t, admin, 'POST', '/admin/billing/invoice/create', {
      userId: users.erin!.user.id,
      ...period(M1),
      currency: 'USD',
      dueInDays: 30,
    });
    expect(fresh.status).toBe(201);
    expect(fresh.body.results.invoice).toMatchObject({ currency: 'USD', amount: '5', status: 'open' });
    expect(fresh.body.results.invoice.number).not.toBe(voided.body.results.number);
    const voids = (await call(t, admin, 'GET', '/admin/billing/invoices?status=void')).body;
    expect(voids.total).toBe(1);
  });
});

describe('the billing screens', () => {
  it('lists users with plan, current month and latest invoice; filters on active plans', async () => {
    const all = (await call(t, admin, 'GET', '/admin/billing/users')).body;
    expect(all).toMatchObject({ success: true, total: 5, skip: 0, take: 25 });
    const active = (await call(t, admin, 'GET', '/admin/billing/users?active=true')).body;
    expect(active.results.map((u: { email: string }) => u.email)).toEqual([
      'dave@example.com',
      'erin@example.com',
    ]);
    const dave = active.results[0];
    expect(dave).toMatchObject({
      userId: users.dave!.user.id,
      plan: { percent: '20', active: true, autoCharge: false },
      // 100 made this month, above the 1400 mark: 20 would be due if the month ended now.
      currentMonth: { ...period(NOW), profit: '100', highWaterMark: '1400', estimatedFee: '20' },
      latestInvoice: { status: 'paid', amount: '200' },
    });
    const inactive = (await call(t, admin, 'GET', '/admin/billing/users?active=false&take=2')).body;
    expect(inactive).toMatchObject({ total: 3, take: 2 });
    expect(inactive.results).toHaveLength(2);
  });

  it("shows one user's plan, records and invoices", async () => {
    const res = await call(t, admin, 'GET', `/admin/billing/user?userId=${users.dave!.user.id}`);
    expect(res.status).toBe(200);
    expect(res.body.results.records.map((r: { month: number }) => r.month)).toEqual([
      M4.month,
      M3.month,
      M2.month,
      M1.month,
    ]);
    expect(res.body.results.invoices).toHaveLength(1);
    expect(
      (await call(t, admin, 'GET', '/admin/billing/user?userId=00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
  });

  it('filters records by status and pages with skip/take', async () => {
    const noFee = await records('?status=no_fee');
    expect(noFee.results.every((r: { status: string }) => r.status === 'no_fee')).toBe(true);
    const page = await records('?skip=2&take=3');
    expect(page).toMatchObject({ total: 16, skip: 2, take: 3 });
    expect(page.results).toHaveLength(3);
  });

  it('keeps history when a plan changes later', async () => {
    await call(t, admin, 'PUT', '/admin/billing/user', { userId: users.dave!.user.id, percent: 50 });
    expect(await recordOf('dave', M4)).toMatchObject({ percent: '20', fee: '80' });
  });

  it('writes every billing action to the audit log', async () => {
    const rows = await auditRows(t);
    const actions = rows.map((r) => `${r.action}:${r.outcome}`);
    expect(actions).toContain('billing.plan_update:ok');
    expect(actions).toContain('billing.plan_update:error');
    expect(actions).toContain('billing.invoice_create:ok');
    expect(actions).toContain('billing.invoice_pay:ok');
    expect(actions).toContain('billing.invoice_pay:error');
    expect(actions).toContain('billing.invoice_void:ok');
    expect(rows.filter((r) => r.action === 'billing.monthly_process')).toHaveLength(6);
  });
});
