import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '@kairos/core';
import { createTestApp, type TestApp } from '../support/app';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, auditRows, call } from './admin-fixtures';

/**
 * Issue 19: billing reads an append-only ledger. A close booked after its month was processed is billed in
 * the next month processed (never lost, never billed twice), and twelve months of random profits, losses and
 * late closes bill exactly what a reference computed here, independently, from the same events says.
 */
let t: TestApp;
let admin: Session;

function monthsAgo(n: number) {
  const d = new Date();
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1));
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n + 1, 1));
  return { year: start.getUTCFullYear(), month: start.getUTCMonth() + 1, start, end };
}
type Month = ReturnType<typeof monthsAgo>;

async function user(email: string, percent: number) {
  const session = await registerUser(t.app, email);
  const accountId = (await createPaperAccount(t.app, session)).id;
  const plan = await call(t, admin, 'PUT', '/admin/billing/user', { userId: session.user.id, percent });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  return { session, accountId };
}

async function closeTrade(
  who: { session: Session; accountId: string },
  pnl: string,
  closedAt: Date,
  symbol = 'BTC/USDT',
) {
  await t.db.pool.query(
    `INSERT INTO trades (user_id, trading_account_id, symbol, side, status, quantity, realised_pnl, opened_at, closed_at)
     VALUES ($1, $2, $6, 'long', 'closed', '0.1', $3, $4, $5)`,
    [who.session.user.id, who.accountId, pnl, new Date(closedAt.getTime() - 3_600_000), closedAt, symbol],
  );
}

const process = async (m: Month) => {
  const res = await call(t, admin, 'POST', '/admin/billing/monthly/process', {
    year: m.year,
    month: m.month,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const recordOf = async (userId: unknown, m: Month) =>
  (
    await call(
      t,
      admin,
      'GET',
      `/admin/billing/records?userId=${String(userId)}&year=${m.year}&month=${m.month}`,
    )
  ).body.results[0] as { profit: string; fee: string; cumulativeProfit: string; highWaterMarkAfter: string };

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
});
afterAll(() => t.close());

describe('the ledger', () => {
  it('refuses to be rewritten: no update, no delete', async () => {
    const ivy = await user('ivy@example.com', 10);
    await closeTrade(ivy, '42', monthsAgo(1).start);
    const { rows } = await t.db.pool.query('SELECT id, amount FROM ledger_events WHERE user_id = $1', [
      ivy.session.user.id,
    ]);
    expect(rows.map((r) => r.amount)).toEqual(['42']);
    await expect(
      t.db.pool.query('UPDATE ledger_events SET amount = 0 WHERE id = $1', [rows[0].id]),
    ).rejects.toThrow(/append-only/);
    await expect(t.db.pool.query('DELETE FROM ledger_events WHERE id = $1', [rows[0].id])).rejects.toThrow(
      /append-only/,
    );
  });

  it('books a correction as a new event: a closed trade whose PnL moves (funding read after the close)', async () => {
    const jon = await user('jon@example.com', 10);
    await closeTrade(jon, '100', monthsAgo(1).start);
    await t.db.pool.query(`UPDATE trades SET realised_pnl = '99.5' WHERE user_id = $1`, [
      jon.session.user.id,
    ]);
    const { rows } = await t.db.pool.query(
      'SELECT amount FROM ledger_events WHERE user_id = $1 ORDER BY id',
      [jon.session.user.id],
    );
    expect(rows.map((r) => r.amount)).toEqual(['100', '-0.5']);
  });

  it('books a moved close as a reversal where it was and a booking where it now is', async () => {
    const kai = await user('kai@example.com', 10);
    await closeTrade(kai, '10', monthsAgo(0).start);
    const earlier = monthsAgo(1).start;
    await t.db.pool.query(`UPDATE trades SET realised_pnl = '250', closed_at = $2 WHERE user_id = $1`, [
      kai.session.user.id,
      earlier,
    ]);
    const { rows } = await t.db.pool.query(
      'SELECT amount, effective_at FROM ledger_events WHERE user_id = $1 ORDER BY id',
      [kai.session.user.id],
    );
    expect(rows.map((r) => [r.amount, r.effective_at.toISOString()])).toEqual([
      ['10', monthsAgo(0).start.toISOString()],
      ['-10', monthsAgo(0).start.toISOString()],
      ['250', earlier.toISOString()],
    ]);
  });
});

describe('a late close', () => {
  it('is billed in the next month processed, with its own time, and only once', async () => {
    const kim = await user('kim@example.com', 20);
    const [early, late] = [monthsAgo(3), monthsAgo(2)];
    await closeTrade(kim, '500', new Date(early.start.getTime() + 86_400_000));
    await process(early);
    expect(await recordOf(kim.session.user.id, early)).toMatchObject({ profit: '500', fee: '100' });

    // Booked now, after its month was billed: its fill time is in `early`.
    await closeTrade(kim, '250', new Date(early.start.getTime() + 2 * 86_400_000));
    await process(early); // changes nothing
    expect(await recordOf(kim.session.user.id, early)).toMatchObject({ profit: '500', fee: '100' });
    await process(late);
    expect(await recordOf(kim.session.user.id, late)).toMatchObject({ profit: '250', fee: '50' });
    const { rows } = await t.db.pool.query(
      `SELECT e.amount, e.effective_at < $2 AS in_early FROM ledger_events e JOIN billed_events b ON b.event_id = e.id
       JOIN billing_records r ON r.id = b.record_id WHERE e.user_id = $1 AND r.month = $3`,
      [kim.session.user.id, early.end, late.month],
    );
    expect(rows).toEqual([{ amount: '250', in_early: true }]);
  });
});

describe('quote currencies', () => {
  it('bills a BTC-quoted and a USDT-quoted trade in USDT, the BTC at a rate recorded with its event', async () => {
    const max = await user('max@example.com', 10);
    const m = monthsAgo(1);
    await closeTrade(max, '100', new Date(m.start.getTime() + 86_400_000));
    await closeTrade(max, '0.01', new Date(m.start.getTime() + 2 * 86_400_000), 'ETH/BTC');
    await process(m);
    const { rows } = await t.db.pool.query(
      `SELECT r.currency, r.rate::text AS rate, r.source FROM ledger_rates r JOIN ledger_events e ON e.id = r.event_id
       WHERE e.user_id = $1`,
      [max.session.user.id],
    );
    expect(rows).toEqual([{ currency: 'BTC', rate: expect.any(String), source: 'BTC/USDT (paper venue)' }]);
    const rate = new Decimal(rows[0].rate);
    expect(rate.gt(1000)).toBe(true);
    const expected = new Decimal(100).plus(rate.times('0.01'));
    expect(await recordOf(max.session.user.id, m)).toMatchObject({
      profit: expected.toFixed(),
      fee: expected.times(0.1).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(),
    });
    await expect(t.db.pool.query('DELETE FROM ledger_rates')).rejects.toThrow(/append-only/);
    // The record shows the events behind its profit, each with its rate.
    const record = (
      await call(
        t,
        admin,
        'GET',
        `/admin/billing/records?userId=${String(max.session.user.id)}&year=${m.year}&month=${m.month}`,
      )
    ).body.results[0];
    const events = await call(t, admin, 'GET', `/admin/billing/records/${record.id}/events`);
    expect(events.status).toBe(200);
    expect(events.body.results).toEqual([
      expect.objectContaining({ currency: 'USDT', amount: '100', rate: '1', amountUsdt: '100' }),
      expect.objectContaining({
        currency: 'BTC',
        amount: '0.01',
        rate: rate.toFixed(),
        rateSource: 'BTC/USDT (paper venue)',
      }),
    ]);
    expect(new Decimal(events.body.results[1].amountUsdt).eq(rate.times('0.01'))).toBe(true);
  });
});

describe('rates recorded as events are booked', () => {
  it("records a BTC event's rate within the minute it is booked, and its month bills at that rate", async () => {
    const ana = await user('ana-rates@example.com', 10);
    const m = monthsAgo(1);
    await closeTrade(ana, '50', new Date(m.start.getTime() + 86_400_000));
    await closeTrade(ana, '0.02', new Date(m.start.getTime() + 2 * 86_400_000), 'ETH/BTC');
    const before = Date.now();
    expect(await t.app.services.billing.recordPendingRates()).toBeGreaterThanOrEqual(1);
    const rateOf = async () =>
      (
        await t.db.pool.query(
          `SELECT r.currency, r.rate::text AS rate, r.source, r.recorded_at
             FROM ledger_rates r JOIN ledger_events e ON e.id = r.event_id WHERE e.user_id = $1`,
          [ana.session.user.id],
        )
      ).rows;
    const [recorded, ...more] = await rateOf();
    // Only the BTC event: a USDT amount needs no rate.
    expect(more).toEqual([]);
    expect(recorded).toMatchObject({ currency: 'BTC', source: 'BTC/USDT (paper venue)' });
    expect(new Date(recorded.recorded_at).getTime()).toBeGreaterThanOrEqual(before - 1_000);
    // Nothing left to price: a second run records nothing.
    expect(await t.app.services.billing.recordPendingRates()).toBe(0);
    // The month, processed later (the simulated price has moved on), bills the BTC at the rate recorded then.
    await new Promise((r) => setTimeout(r, 50));
    await process(m);
    expect(await rateOf()).toHaveLength(1);
    const expected = new Decimal(50).plus(new Decimal(recorded.rate).times('0.02'));
    expect((await recordOf(ana.session.user.id, m)).profit).toBe(expected.toFixed());
  });
});

describe('an adjustment', () => {
  it('is a new ledger event, audited, counted in the month it is billed in', async () => {
    const ola = await user('ola-adjust@example.com', 10);
    await closeTrade(ola, '300', new Date(Date.now() - 60_000));
    const res = await call(t, admin, 'POST', '/admin/ledger/adjustments', {
      userId: ola.session.user.id,
      amount: '-120.5',
      currency: 'usdt',
      reason: 'Refund of a double-booked fee',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.results).toMatchObject({
      kind: 'adjustment',
      userId: ola.session.user.id,
      amount: '-120.5',
      currency: 'USDT',
      note: 'Refund of a double-booked fee',
    });
    const { rows } = await t.db.pool.query(
      'SELECT kind, amount, note, trade_id FROM ledger_events WHERE user_id = $1 ORDER BY id',
      [ola.session.user.id],
    );
    expect(rows).toEqual([
      { kind: 'realised_pnl', amount: '300', note: null, trade_id: expect.any(String) },
      { kind: 'adjustment', amount: '-120.5', note: 'Refund of a double-booked fee', trade_id: null },
    ]);
    const [audit] = (await auditRows(t, 'billing.ledger_adjustment')).filter(
      (a) => a.target === `user:${String(ola.session.user.id)}`,
    );
    expect(audit).toMatchObject({
      outcome: 'ok',
      details: { amount: '-120.5', currency: 'USDT', reason: 'Refund of a double-booked fee' },
    });

    // The month in progress (the next to be billed) counts it: 300 − 120.5.
    const detail = await call(t, admin, 'GET', `/admin/billing/user?userId=${String(ola.session.user.id)}`);
    expect(detail.body.results.currentMonth).toMatchObject({ profit: '179.5', estimatedFee: '17.95' });
  });

  it('refuses a zero amount, a missing reason, a bad currency and an unknown user', async () => {
    const pia = await user('pia-adjust@example.com', 10);
    const body = { userId: pia.session.user.id, amount: '10', currency: 'USDT', reason: 'goodwill' };
    for (const bad of [{ amount: '0' }, { reason: ' ' }, { currency: 'US DT' }, { amount: 'ten' }]) {
      const res = await call(t, admin, 'POST', '/admin/ledger/adjustments', { ...body, ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toBe('VALIDATION_ERROR');
    }
    const missing = await call(t, admin, 'POST', '/admin/ledger/adjustments', {
      ...body,
      userId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('NOT_FOUND');
    const { rows } = await t.db.pool.query(
      "SELECT 1 FROM ledger_events WHERE kind = 'adjustment' AND user_id = $1",
      [pia.session.user.id],
    );
    expect(rows).toEqual([]);
    // A user may not adjust their own bill.
    const own = await call(t, pia.session, 'POST', '/admin/ledger/adjustments', body);
    expect(own.status).toBe(403);
  });
});

describe('twelve months of random profits, losses and late closes', () => {
  it('bill what a reference computed from the same events says', async () => {
    // A seeded generator: the same months every run.
    let seed = 20_261_124;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const percent = 25;
    const leo = await user('leo@example.com', percent);
    const months = Array.from({ length: 12 }, (_, i) => monthsAgo(15 - i)); // 15 … 4 months ago
    /**
     * Every event with the month it is inserted before processing: trades' closes and, one in five, an admin's
     * adjustment; beside them, money movements (a fee, a funding payment) that billing must leave out (their
     * trade's PnL event holds them).
     */
    const events: { pnl: Decimal; effective: Date; bookedBefore: number; kind: string }[] = [];
    for (let i = 0; i < months.length; i++) {
      const m = months[i]!;
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
        const pnl = new Decimal(Math.round((random() * 2000 - 900) * 100) / 100);
        const effective = new Date(m.start.getTime() + Math.floor(random() * 27) * 86_400_000 + 3_600_000);
        // One in four closes is learnt late: booked only after one to three more months were processed.
        const lateBy = random() < 0.25 ? 1 + Math.floor(random() * 3) : 0;
        const kind = ['realised_pnl', 'realised_pnl', 'realised_pnl', 'adjustment', 'fee', 'funding'][
          Math.floor(random() * 6)
        ]!;
        events.push({ pnl, effective, bookedBefore: Math.min(i + lateBy, months.length - 1), kind });
      }
    }
    for (let i = 0; i < months.length; i++) {
      for (const e of events.filter((x) => x.bookedBefore === i)) {
        if (e.kind === 'realised_pnl') await closeTrade(leo, e.pnl.toFixed(), e.effective);
        else
          await t.db.pool.query(
            `INSERT INTO ledger_events (user_id, kind, amount, currency, effective_at, note)
             VALUES ($1, $2, $3, 'USDT', $4, $5)`,
            [
              leo.session.user.id,
              e.kind,
              e.pnl.toFixed(),
              e.effective,
              e.kind === 'adjustment' ? 'fix' : null,
            ],
          );
      }
      await process(months[i]!);
    }

    // The reference: month i bills every event booked before it was processed, not billed yet, that moved
    // before its end; then the high-water mark rule.
    let cumulative = new Decimal(0);
    let mark = new Decimal(0);
    const billed = new Set<number>();
    for (let i = 0; i < months.length; i++) {
      const m = months[i]!;
      let profit = new Decimal(0);
      events.forEach((e, n) => {
        if (e.kind === 'fee' || e.kind === 'funding') return; // inside a trade's PnL event, never billed alone
        if (!billed.has(n) && e.bookedBefore <= i && e.effective < m.end) {
          billed.add(n);
          profit = profit.plus(e.pnl);
        }
      });
      cumulative = cumulative.plus(profit);
      const feeable = Decimal.max(0, cumulative.minus(mark));
      mark = Decimal.max(mark, cumulative);
      const fee = feeable.times(percent).div(100).toDecimalPlaces(2, Decimal.ROUND_DOWN);
      const record = await recordOf(leo.session.user.id, m);
      expect(
        { month: i, profit: record.profit, fee: record.fee, mark: record.highWaterMarkAfter },
        `month ${i}`,
      ).toEqual({ month: i, profit: profit.toFixed(), fee: fee.toFixed(), mark: mark.toFixed() });
    }
    expect(billed.size).toBe(
      events.filter((e) => e.kind === 'realised_pnl' || e.kind === 'adjustment').length,
    );
    expect(events.filter((e) => e.kind === 'adjustment').length).toBeGreaterThan(0);
    expect(events.filter((e) => e.kind === 'fee' || e.kind === 'funding').length).toBeGreaterThan(0);
  });
});
