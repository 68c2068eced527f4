import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import {
  createBot,
  createPaperAccount,
  sendSignal,
  startTestAlertWorker,
  waitForAlert,
} from '../support/engine';
import { bearer, registerUser, type Session } from '../support/users';

let t: TestApp;
let worker: ReturnType<typeof startTestAlertWorker>;
let admin: Session;
let alice: Session;
let bob: Session;
let carol: Session;
let strategy: { id: string; strategyKey: string; webhookSecret: string };
const botIds: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: 'signals@example.com' });
  worker = startTestAlertWorker(t);
  admin = await registerUser(t.app, 'signals@example.com');
  [alice, bob, carol] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
  strategy = (
    await t.app.inject({
      method: 'POST',
      url: '/api/strategies',
      headers: bearer(admin.apiToken),
      payload: { nickname: 'BTC swing', tradeCurrency: 'BTC', timeFrame: '1h' },
    })
  ).json().results;
  const aliceAccount = await createPaperAccount(t.app, alice);
  const bobAccount = await createPaperAccount(t.app, bob, { startingBalance: 5000 });
  const carolAccount = await createPaperAccount(t.app, carol, { startingBalance: '0.5' });
  botIds.alice = (
    await createBot(t.app, alice, {
      nickname: 'A',
      strategy_id: strategy.id,
      trading_account_id: aliceAccount.id,
      fixed_amount: 1000,
      is_active: true,
    })
  ).id;
  botIds.bob = (
    await createBot(t.app, bob, {
      nickname: 'B',
      strategyId: strategy.id,
      tradingAccountId: bobAccount.id,
      portfolioPercent: 20,
      isActive: true,
    })
  ).id;
  botIds.carol = (
    await createBot(t.app, carol, {
      nickname: 'C',
      strategyId: strategy.id,
      tradingAccountId: carolAccount.id,
      fixedAmount: 100,
      isActive: true,
    })
  ).id;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

const trades = async (s: Session, botId: string) =>
  (
    await t.app.inject({ method: 'GET', url: `/api/bots/${botId}/trades`, headers: bearer(s.apiToken) })
  ).json();
const bot = async (s: Session, botId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/bots/${botId}`, headers: bearer(s.apiToken) })).json()
    .results;

describe('a signal reaches every bot once', () => {
  it('opens one trade per funded bot, and fails the unfunded one alone', async () => {
    const { alertId } = await sendSignal(t.app, strategy, {
      action: 'long',
      symbol: 'BTCUSDT',
      id: 'story-long',
    });
    expect(await waitForAlert(t, alertId)).toBe('succeeded');

    for (const [s, id] of [
      [alice, botIds.alice],
      [bob, botIds.bob],
    ] as const) {
      const page = await trades(s, id!);
      expect(page).toMatchObject({ success: true, total: 1, page: 1, pageSize: 50 });
      const [trade] = page.results;
      expect(trade).toMatchObject({ symbol: 'BTC/USDT', side: 'long', status: 'open' });
      expect(Number(trade.quantity)).toBeGreaterThan(0);
      expect(Number(trade.entryPrice)).toBeGreaterThan(1000);
      expect(Number(trade.commission)).toBeGreaterThan(0);
      const b = await bot(s, id!);
      expect(b).toMatchObject({ position: 'long', isTrading: true });
    }
    // Alice spends ~1000 USDT; Bob 20% of 5000 = ~1000 USDT (sized at the ask; deeper levels may cost a little more).
    const a = (await trades(alice, botIds.alice!)).results[0];
    expect(Number(a.quantity) * Number(a.entryPrice)).toBeGreaterThan(990);
    expect(Number(a.quantity) * Number(a.entryPrice)).toBeLessThanOrEqual(1000 * 1.002);

    const outcomes = await t.db.pool.query(
      'SELECT bot_id, status, message FROM alert_outcomes WHERE alert_id = $1',
      [alertId],
    );
    const byBot = Object.fromEntries(outcomes.rows.map((r) => [r.bot_id, r]));
    expect(byBot[botIds.alice!].status).toBe('opened');
    expect(byBot[botIds.bob!].status).toBe('opened');
    expect(byBot[botIds.carol!].status).toBe('failed');
    expect(byBot[botIds.carol!].message).toMatch(/balance|funds/i);
    expect((await bot(carol, botIds.carol!)).position).toBe('out');
  });

  it('ignores the same alert sent again', async () => {
    const again = await sendSignal(t.app, strategy, { action: 'long', symbol: 'BTCUSDT', id: 'story-long' });
    expect(again.duplicate).toBe(true);
    expect((await trades(alice, botIds.alice!)).total).toBe(1);
  });

  it("keeps each user's bots and trades to themselves", async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/bots/${botIds.alice}`, headers: bearer(bob.apiToken) }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/bots/${botIds.alice}/trades`,
          headers: bearer(bob.apiToken),
        })
      ).statusCode,
    ).toBe(404);
    const bobsList = (
      await t.app.inject({ method: 'GET', url: '/api/bots', headers: bearer(bob.apiToken) })
    ).json();
    expect(bobsList.results.map((b: { id: string }) => b.id)).toEqual([botIds.bob]);
  });

  it('closes every trade on exit with PnL and commission, and sets positions out', async () => {
    const { alertId } = await sendSignal(t.app, strategy, { action: 'exit', id: 'story-exit' });
    expect(await waitForAlert(t, alertId)).toBe('succeeded');
    for (const [s, id] of [
      [alice, botIds.alice],
      [bob, botIds.bob],
    ] as const) {
      const [trade] = (await trades(s, id!)).results;
      expect(trade.status).toBe('closed');
      expect(trade.exitPrice).not.toBeNull();
      expect(trade.pnl).not.toBeNull();
      expect(trade.closedAt).not.toBeNull();
      expect(trade.durationMs).toBeGreaterThanOrEqual(0);
      // Two taker fills at 0.1% each: commission ≈ 0.2% of ~1000 USDT.
      expect(Number(trade.commission)).toBeGreaterThan(1.5);
      expect(Number(trade.commission)).toBeLessThan(2.5);
      const b = await bot(s, id!);
      expect(b).toMatchObject({ position: 'out', isTrading: false });
    }
    const history = await t.db.pool.query(
      'SELECT to_status FROM alert_events WHERE alert_id = $1 ORDER BY at',
      [alertId],
    );
    expect(history.rows.map((r) => r.to_status)).toEqual(['queued', 'in_progress', 'succeeded']);
  });
});
