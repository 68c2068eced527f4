import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBot,
  createPaperAccount,
  ladderStrategyBody,
  sendSignal,
  waitForAlert,
} from '../support/engine';
import { registerUser } from '../support/users';
import { asUser, startAlerts, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * An alert over more bots than are worked on at once (32), on a strategy with a take-profit ladder and a
 * stop: every bot's entry reaches the venue before any take-profit order, and once the alert has
 * succeeded every trade has its ladder resting.
 */
const BOTS = 48;
let t: TradesApp;
let alerts: ReturnType<typeof startAlerts>;
let strategy: { id: string; strategyKey: string; webhookSecret: string };
let accountIds: string[];
let alice: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  t = await startTradesApp();
  alerts = startAlerts(t);
  alice = await registerUser(t.app);
  strategy = (await asUser(t.app, alice).post('/api/strategies', ladderStrategyBody('Ladder for many'))).body
    .results;
  accountIds = [];
  for (let i = 0; i < 4; i += 1)
    accountIds.push((await createPaperAccount(t.app, alice, { nickname: `a${i}` })).id);
  for (let i = 0; i < BOTS; i += 1) {
    await createBot(t.app, alice, {
      nickname: `bot ${i}`,
      strategyId: strategy.id,
      tradingAccountId: accountIds[i % 4],
      fixedAmount: 100,
      isActive: true,
    });
  }
}, 60_000);
afterAll(async () => {
  await alerts.stop();
  await t.close();
});

describe('a fan-out over a strategy with a take-profit ladder', () => {
  it("sends every bot's entry before any take-profit order, and leaves every ladder resting", async () => {
    const { alertId } = await sendSignal(t.app, strategy, { action: 'long', id: 'many-ladders' });
    expect(await waitForAlert(t, alertId, ['succeeded', 'dead'], 60_000)).toBe('succeeded');

    // The venue's own record, in the order it took the orders.
    const { rows } = await t.db.pool.query(
      `SELECT o.role, count(*)::int AS n, min(p.seq) AS first, max(p.seq) AS last
       FROM orders o JOIN trades tr ON tr.id = o.trade_id
       JOIN paper_orders p ON p.account_id = o.trading_account_id AND p.client_order_id = o.client_order_id
       WHERE tr.alert_id = $1 GROUP BY o.role ORDER BY o.role`,
      [alertId],
    );
    const byRole = Object.fromEntries(rows.map((r) => [r.role, r]));
    expect(byRole.entry.n).toBe(BOTS);
    expect(byRole.tp1.n).toBe(BOTS);
    expect(byRole.tp2.n).toBe(BOTS);
    expect(Number(byRole.entry.last)).toBeLessThan(Number(byRole.tp1.first));
    expect(Number(byRole.entry.last)).toBeLessThan(Number(byRole.tp2.first));

    const { rows: trades } = await t.db.pool.query(
      `SELECT tr.status, tr.stop_loss_price IS NOT NULL AS has_stop,
              (SELECT count(*)::int FROM orders o WHERE o.trade_id = tr.id AND o.role LIKE 'tp%' AND o.status = 'open') AS resting
       FROM trades tr WHERE tr.alert_id = $1`,
      [alertId],
    );
    expect(trades).toHaveLength(BOTS);
    expect(trades.every((tr) => tr.status === 'open' && tr.has_stop && tr.resting === 2)).toBe(true);
  }, 90_000);
});

describe('the pair a bot trades', () => {
  it("is the alert's symbol for a bot that follows its strategy's pair, and the bot's own pair otherwise", async () => {
    const plain = (
      await asUser(t.app, alice).post('/api/strategies', {
        nickname: 'Pairs',
        tradeCurrency: 'BTC',
        timeFrame: '1h',
      })
    ).body.results;
    const follower = await createBot(t.app, alice, {
      nickname: 'follows BTC',
      strategyId: plain.id,
      tradingAccountId: accountIds[0],
      fixedAmount: 100,
      isActive: true,
    });
    const own = await createBot(t.app, alice, {
      nickname: 'trades ETH',
      strategyId: plain.id,
      tradingAccountId: accountIds[1],
      fixedAmount: 100,
      isActive: true,
      tradeCurrency: 'ETH',
    });
    const { alertId } = await sendSignal(t.app, plain, { action: 'long', id: 'pairs' });
    expect(await waitForAlert(t, alertId, ['succeeded', 'dead'], 30_000)).toBe('succeeded');
    const { rows } = await t.db.pool.query('SELECT bot_id, symbol FROM trades WHERE alert_id = $1', [
      alertId,
    ]);
    const symbolOf = (botId: string) => rows.find((r) => r.bot_id === botId)?.symbol;
    expect(symbolOf(follower.id)).toBe('BTC/USDT');
    expect(symbolOf(own.id)).toBe('ETH/USDT');
  }, 60_000);
});
