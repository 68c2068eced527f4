import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Issue 19: a trade's figures and the dashboard's realised PnL are read from the ledger. A trade's row edited
 * behind the books' back (its PnL, PnL %, commission or funding) shows nothing on any screen; an admin's
 * adjustment is in the user's dashboard total.
 */
const ADMIN = 'ledger-figures-admin@example.com';
let t: TradesApp;
let alice: Session;
let admin: Session;
let api: ReturnType<typeof asUser>;
let spot: { id: string };
const market = new ScriptedMarket(() => Date.now());

type Figures = { pnl: string | null; pnlPercent: string | null; commission: string; funding: string };
const figuresOf = (r: Figures): Figures => ({
  pnl: r.pnl,
  pnlPercent: r.pnlPercent,
  commission: r.commission,
  funding: r.funding,
});

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market }, env: { KAIROS_ADMIN_EMAIL: ADMIN } });
  admin = await registerUser(t.app, ADMIN);
  alice = await registerUser(t.app);
  api = asUser(t.app, alice);
  spot = await createPaperAccount(t.app, alice);
});
afterAll(() => t.close());

describe('a trade as the ledger tells it', () => {
  let tradeId: string;
  let booked: Figures;

  it('an open trade and then the same trade closed show the engine’s figures, which are the ledger’s', async () => {
    market.moveTo('65000');
    const opened = await api.post('/api/trades', {
      accountId: spot.id,
      symbol: 'BTC/USDT',
      side: 'long',
      amount: '0.01',
      takeProfits: [],
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    tradeId = opened.body.results.trade.id;
    // Nothing exited yet: no realised PnL, the entry's fee as commission.
    const open = (await api.get(`/api/trades/${tradeId}`)).body.results.trade;
    expect(open.pnl).toBeNull();
    expect(Number(open.commission)).toBeGreaterThan(0);

    market.moveTo('66000');
    const done = await api.post(`/api/trades/${tradeId}/complete`);
    expect(done.body.results).toMatchObject({ completed: true, status: 'closed' });
    const { rows } = await t.db.pool.query(
      `SELECT realised_pnl::text AS pnl, pnl_percent::text AS pct, commission::text AS commission
       FROM trades WHERE id = $1`,
      [tradeId],
    );
    booked = figuresOf((await api.get(`/api/trades/${tradeId}`)).body.results.trade);
    // What the engine computed from the fills is what the ledger's events add up to.
    expect(booked.pnl).toBe(String(Number(rows[0].pnl)));
    expect(Number(booked.pnlPercent)).toBeCloseTo(Number(rows[0].pct), 12);
    expect(Number(booked.commission)).toBeCloseTo(Number(rows[0].commission), 12);
    expect(Number(booked.pnl)).not.toBe(0);
  });

  it('a row edited in SQL after booking changes nothing the user sees', async () => {
    await t.db.pool.query(
      `UPDATE trades SET realised_pnl = '123456', pnl_percent = '99', commission = '0', funding = '777'
       WHERE id = $1`,
      [tradeId],
    );
    const detail = (await api.get(`/api/trades/${tradeId}`)).body.results.trade;
    expect(figuresOf(detail)).toEqual(booked);
    const list = (await api.get('/api/trades?pageSize=50')).body.results as (Figures & { id: string })[];
    expect(figuresOf(list.find((r) => r.id === tradeId)!)).toEqual(booked);
    const completion = (await api.get(`/api/trades/${tradeId}/complete`)).body.results;
    expect({ pnl: completion.pnl, pnlPercent: completion.pnlPercent }).toEqual({
      pnl: booked.pnl,
      pnlPercent: booked.pnlPercent,
    });
  });
});

describe('the dashboard’s realised PnL', () => {
  const today = () => new Date().toISOString().slice(0, 10);
  const metrics = async (query = '') =>
    (await api.get(`/api/dashboard?from=${today()}&to=${today()}&include=metrics,dailyPnl${query}`)).body
      .results;

  it('holds an admin’s adjustment of the user, and only where no account or bot is chosen', async () => {
    await api.put('/user/settings', { timezone: 'UTC', currency: 'USD' });
    const before = await metrics();
    const res = await asUser(t.app, admin).post('/admin/ledger/adjustments', {
      userId: alice.user.id,
      amount: '25.5',
      currency: 'USDT',
      reason: 'Goodwill credit',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const after = await metrics();
    expect(Number(after.metrics.netPnl) - Number(before.metrics.netPnl)).toBeCloseTo(25.5, 2);
    expect(after.metrics.closedTrades).toBe(before.metrics.closedTrades);
    const day = (d: { dailyPnl: { date: string; pnl: string }[] }) =>
      Number(d.dailyPnl.find((p) => p.date === today())?.pnl ?? 0);
    expect(day(after) - day(before)).toBeCloseTo(25.5, 2);
    // An account's figures are its trades': the adjustment is on none of them.
    const account = await metrics(`&accountId=${spot.id}`);
    expect(Number(account.metrics.netPnl)).toBeCloseTo(Number(before.metrics.netPnl), 2);
  });
});
