import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import { createBot, createPaperAccount } from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

let t: TestApp;
let alice: Session;
let bob: Session;
let acctA: string;
let acctB: string;
let botA1: string;
let botA2: string;
let bobAccount: string;

async function seedTrade(v: {
  user: string;
  account: string;
  bot: string | null;
  pnl: string;
  notional: string;
  closedAt: string;
  status?: string;
}) {
  await t.db.pool.query(
    `INSERT INTO trades (user_id, bot_id, trading_account_id, symbol, side, status, quantity, entry_price, exit_price,
       realised_pnl, entry_notional, opened_at, closed_at)
     VALUES ($1, $2, $3, 'BTC/USDT', 'long', $4, '1', $5, $5, $6, $5, $7::timestamptz - interval '1 hour', $8)`,
    [
      v.user,
      v.bot,
      v.account,
      v.status ?? 'closed',
      v.notional,
      v.status === 'open' ? null : v.pnl,
      v.closedAt,
      v.status === 'open' ? null : v.closedAt,
    ],
  );
}

const dashboard = async (s: Session, query: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/dashboard?${query}`,
    headers: bearer(s.apiToken),
  });
  return { status: res.statusCode, body: res.json() };
};

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: 'dash-admin@example.com' });
  const admin = await registerUser(t.app, 'dash-admin@example.com');
  alice = await registerUser(t.app);
  bob = await registerUser(t.app);
  const strategy = (
    await t.app.inject({
      method: 'POST',
      url: '/api/strategies',
      headers: bearer(admin.apiToken),
      payload: { nickname: 'Dash', tradeCurrency: 'BTC', timeFrame: '1h' },
    })
  ).json().results;
  acctA = (await createPaperAccount(t.app, alice, { nickname: 'Main' })).id;
  acctB = (await createPaperAccount(t.app, alice, { nickname: 'Second', startingBalance: 2500 })).id;
  bobAccount = (await createPaperAccount(t.app, bob)).id;
  botA1 = (
    await createBot(t.app, alice, {
      nickname: 'Alpha',
      strategyId: strategy.id,
      tradingAccountId: acctA,
      fixedAmount: 100,
    })
  ).id;
  botA2 = (
    await createBot(t.app, alice, {
      nickname: 'Beta',
      strategyId: strategy.id,
      tradingAccountId: acctB,
      fixedAmount: 100,
    })
  ).id;
  const botB = (
    await createBot(t.app, bob, {
      nickname: 'Bob',
      strategyId: strategy.id,
      tradingAccountId: bobAccount,
      fixedAmount: 100,
    })
  ).id;

  // Alice, in Paris: 23:30 UTC on the 10th is already the 11th there.
  await seedTrade({
    user: alice.user.id as string,
    account: acctA,
    bot: botA1,
    pnl: '100',
    notional: '1000',
    closedAt: '2026-03-10T10:00:00Z',
  });
  await seedTrade({
    user: alice.user.id as string,
    account: acctA,
    bot: botA1,
    pnl: '-40',
    notional: '1000',
    closedAt: '2026-03-10T23:30:00Z',
  });
  await seedTrade({
    user: alice.user.id as string,
    account: acctB,
    bot: botA2,
    pnl: '60',
    notional: '500',
    closedAt: '2026-03-12T08:00:00Z',
  });
  await seedTrade({
    user: alice.user.id as string,
    account: acctB,
    bot: null,
    pnl: '-20',
    notional: '500',
    closedAt: '2026-03-12T09:00:00Z',
  });
  await seedTrade({
    user: alice.user.id as string,
    account: acctA,
    bot: botA1,
    pnl: '999',
    notional: '1000',
    closedAt: '2026-02-01T09:00:00Z',
  }); // outside the range
  await seedTrade({
    user: alice.user.id as string,
    account: acctA,
    bot: botA1,
    pnl: '0',
    notional: '300',
    closedAt: '2026-03-11T00:00:00Z',
    status: 'open',
  });
  await seedTrade({
    user: bob.user.id as string,
    account: bobAccount,
    bot: botB,
    pnl: '5000',
    notional: '100',
    closedAt: '2026-03-11T12:00:00Z',
  });
  await t.app.inject({
    method: 'PUT',
    url: '/user/settings',
    headers: bearer(alice.apiToken),
    payload: { timezone: 'Europe/Paris' },
  });

  // Equity snapshots: account A 10,000 → 10,100 → 10,060; account B 2,500 → 2,540.
  const snap = (account: string, equity: string, at: string) =>
    t.db.pool.query(
      `INSERT INTO balance_snapshots (user_id, trading_account_id, equity, at) VALUES ($1, $2, $3, $4)`,
      [alice.user.id, account, equity, at],
    );
  await t.db.pool.query(`DELETE FROM balance_snapshots`);
  await snap(acctA, '10000', '2026-03-09T12:00:00Z');
  await snap(acctB, '2500', '2026-03-09T12:00:00Z');
  await snap(acctA, '10100', '2026-03-10T12:00:00Z');
  await snap(acctA, '10060', '2026-03-11T00:30:00Z');
  await snap(acctB, '2540', '2026-03-12T10:00:00Z');
});
afterAll(() => t.close());

describe('GET /api/dashboard', () => {
  it('computes the metrics over the closed trades of the range', async () => {
    const { status, body } = await dashboard(alice, 'from=2026-03-09&to=2026-03-12');
    expect(status).toBe(200);
    const r = body.results;
    expect(r.range.timezone).toBe('Europe/Paris');
    expect(r.currency).toEqual({ currency: 'USD', converted: false, rate: null, rateSource: null });
    // 100 − 40 + 60 − 20 = 100 on 3,000 deployed; 2 wins out of 4.
    expect(r.metrics).toEqual({ netPnl: '100.00', pnlPercent: '3.33', winRate: '50.00', closedTrades: 4 });
  });

  it("buckets daily PnL by the user's time zone", async () => {
    const { body } = await dashboard(alice, 'from=2026-03-09&to=2026-03-12&include=dailyPnl');
    expect(body.results.dailyPnl).toEqual([
      { date: '2026-03-10', pnl: '100.00', trades: 1 },
      { date: '2026-03-11', pnl: '-40.00', trades: 1 },
      { date: '2026-03-12', pnl: '40.00', trades: 2 },
    ]);
    expect(body.results.metrics).toBeUndefined();
  });

  it('filters by account and by bot', async () => {
    const byAccount = await dashboard(
      alice,
      `from=2026-03-09&to=2026-03-12&accountId=${acctB}&include=metrics,balanceByAccount`,
    );
    expect(byAccount.body.results.metrics).toMatchObject({ netPnl: '40.00', closedTrades: 2 });
    expect(byAccount.body.results.balanceByAccount.map((a: { accountId: string }) => a.accountId)).toEqual([
      acctB,
    ]);
    const byBot = await dashboard(
      alice,
      `from=2026-03-09&to=2026-03-12&botId=${botA1}&include=metrics,equityCurve`,
    );
    expect(byBot.body.results.metrics).toMatchObject({ netPnl: '60.00', closedTrades: 2, winRate: '50.00' });
    expect(byBot.body.results.equityCurve).toEqual({
      kind: 'cumulativePnl',
      points: [
        { date: '2026-03-10', value: '100.00' },
        { date: '2026-03-11', value: '60.00' },
      ],
    });
  });

  it('builds the daily equity curve from balance snapshots', async () => {
    const { body } = await dashboard(alice, 'from=2026-03-09&to=2026-03-12&include=equityCurve');
    expect(body.results.equityCurve).toEqual({
      kind: 'equity',
      points: [
        { date: '2026-03-09', value: '12500.00' },
        { date: '2026-03-10', value: '12600.00' },
        { date: '2026-03-11', value: '12560.00' },
        { date: '2026-03-12', value: '12600.00' },
      ],
    });
  });

  it('ranks capital deployed by bot and lists balances by account', async () => {
    const { body } = await dashboard(alice, 'include=capitalByBot,balanceByAccount&topN=1');
    expect(body.results.capitalByBot).toEqual([
      { botId: botA1, nickname: 'Alpha', sandbox: false, deployed: '300.00', openTrades: 1 },
    ]);
    expect(body.results.balanceByAccount).toEqual([
      { accountId: acctA, nickname: 'Main', exchange: 'paper', sandbox: false, balance: '10000.00' },
      { accountId: acctB, nickname: 'Second', exchange: 'paper', sandbox: false, balance: '2500.00' },
    ]);
  });

  it("never shows another user's data", async () => {
    const mine = await dashboard(bob, 'from=2026-03-09&to=2026-03-12');
    expect(mine.body.results.metrics).toMatchObject({ netPnl: '5000.00', closedTrades: 1 });
    expect(mine.body.results.balanceByAccount.map((a: { accountId: string }) => a.accountId)).toEqual([
      bobAccount,
    ]);
    expect((await dashboard(bob, `accountId=${acctA}`)).status).toBe(404);
    expect((await dashboard(bob, `botId=${botA1}`)).status).toBe(404);
  });

  it('converts to EUR at the paper EUR/USDT price and says so', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/user/settings',
      headers: bearer(alice.apiToken),
      payload: { currency: 'EUR' },
    });
    const { body } = await dashboard(alice, 'from=2026-03-09&to=2026-03-12&include=metrics');
    const c = body.results.currency;
    expect(c).toMatchObject({ currency: 'EUR', converted: true });
    expect(Number(body.results.metrics.netPnl)).toBeCloseTo(100 * Number(c.rate), 1);
    await t.app.inject({
      method: 'PUT',
      url: '/user/settings',
      headers: bearer(alice.apiToken),
      payload: { currency: 'USD' },
    });
  });

  it('follows a closed trade corrected; a row deleted behind the books takes no money out of the ledger', async () => {
    const { rows } = await t.db.pool.query(`SELECT id FROM trades WHERE user_id = $1 AND realised_pnl = 60`, [
      alice.user.id,
    ]);
    await t.db.pool.query(`UPDATE trades SET realised_pnl = 80 WHERE id = $1`, [rows[0].id]);
    expect(
      (await dashboard(alice, 'from=2026-03-09&to=2026-03-12&include=metrics')).body.results.metrics,
    ).toMatchObject({
      netPnl: '120.00',
      closedTrades: 4,
    });
    await t.db.pool.query(`DELETE FROM trades WHERE id = $1`, [rows[0].id]);
    // The realised PnL is the ledger's (issue 19): the 80 booked stays; the counts follow the rows.
    expect(
      (await dashboard(alice, 'from=2026-03-09&to=2026-03-12&include=metrics')).body.results.metrics,
    ).toMatchObject({
      netPnl: '120.00',
      closedTrades: 3,
      winRate: '33.33',
    });
  });

  it('refuses bad input with a message', async () => {
    const bad = await dashboard(alice, 'from=yesterday&include=everything');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });
});

describe('portfolio', () => {
  it('lists holdings across accounts with value and share', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/portfolio', headers: bearer(alice.apiToken) });
    expect(res.statusCode).toBe(200);
    const p = res.json().results;
    expect(p.totalValue).toBe('12500.00');
    expect(p.holdings).toEqual([
      {
        asset: 'USDT',
        amount: '12500',
        value: '12500.00',
        share: '100.00',
        accounts: [
          { accountId: acctA, nickname: 'Main', sandbox: false, amount: '10000' },
          { accountId: acctB, nickname: 'Second', sandbox: false, amount: '2500' },
        ],
      },
    ]);
  });

  it('draws equity history for a period', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/portfolio/history?period=all',
      headers: bearer(alice.apiToken),
    });
    expect(res.statusCode).toBe(200);
    const { points, period } = res.json().results;
    expect(period).toBe('all');
    expect(points.at(-1).value).toBe('12600.00');
    expect(points[0].value).toBe('12500.00');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/portfolio/history?period=2w',
      headers: bearer(alice.apiToken),
    });
    expect(bad.statusCode).toBe(400);
  });

  it("keeps the booked PnL's hourly rollup equal to the ledger, and its rebuild makes the same rows", async () => {
    // A closed trade's PnL corrected (a fee booked late) is one more event, a negative one.
    await t.db.pool.query(
      `UPDATE trades SET realised_pnl = realised_pnl - 1.5
       WHERE id = (SELECT id FROM trades WHERE user_id = $1 AND status = 'closed' LIMIT 1)`,
      [alice.user.id],
    );
    const zero = '00000000-0000-0000-0000-000000000000';
    const fromLedger = `
      SELECT e.user_id, date_trunc('hour', e.effective_at) AS hour,
             coalesce(t.trading_account_id, '${zero}') AS account, coalesce(t.bot_id, '${zero}') AS bot,
             sum(e.amount)::numeric(38, 18)::text AS pnl
      FROM ledger_events e LEFT JOIN trades t ON t.id = e.trade_id
      WHERE e.kind IN ('realised_pnl', 'adjustment')
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
    const rollup = `
      SELECT user_id, hour, trading_account_id AS account, bot_id AS bot, pnl::numeric(38, 18)::text AS pnl
      FROM ledger_pnl_hourly ORDER BY 1, 2, 3, 4`;
    const ledger = (await t.db.pool.query(fromLedger)).rows;
    expect(ledger.length).toBeGreaterThan(2);
    // Each user's hours hold the ledger's sums. (A trade row deleted behind the books' back, above, keeps its
    // account and bot in the rollup, which took them when its money was booked; the ledger no longer names them.)
    const byHour = (rows: { user_id: string; hour: Date; pnl: string }[]) => {
      const sums = new Map<string, number>();
      for (const row of rows) {
        const key = `${row.user_id} ${row.hour.toISOString()}`;
        sums.set(key, (sums.get(key) ?? 0) + Number(row.pnl));
      }
      return [...sums.entries()].sort();
    };
    expect(byHour((await t.db.pool.query(rollup)).rows)).toEqual(byHour(ledger));
    // Rebuilt from the ledger, it is the ledger's rows exactly.
    await t.db.pool.query('SELECT kairos_rebuild_ledger_pnl_rollup()');
    expect((await t.db.pool.query(rollup)).rows).toEqual(ledger);
  });
});
