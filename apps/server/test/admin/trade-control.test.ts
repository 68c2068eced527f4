import type { BotActionOutcome, TradeControlStatus } from '@kairos/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app';
import {
  createBot,
  createPaperAccount,
  sendSignal,
  startTestAlertWorker,
  waitForAlert,
} from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { ADMIN_EMAIL, auditRows, call, count, createStrategy } from './admin-fixtures';

let t: TestApp;
let admin: Session;
let alice: Session;
let bob: Session;
let carol: Session;
let strategy: { id: string; strategyKey: string; webhookSecret: string };
const bots: Record<string, string> = {};

const status = async () =>
  (await call(t, admin, 'GET', `/admin/strategies/${strategy.id}/trades/status`)).body.results;
const act = (action: string, body: unknown = {}) =>
  call(t, admin, 'POST', `/admin/strategies/${strategy.id}/trades/${action}`, body);
const orderCount = () => count(t, 'SELECT count(*) AS n FROM orders');
const venueOrderCount = () => count(t, 'SELECT count(*) AS n FROM paper_orders');
const byBot = <T extends { botId: string }>(rows: T[]): Record<string, T> =>
  Object.fromEntries(rows.map((o) => [o.botId, o]));

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  [alice, bob, carol] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
  // A two-level ladder far above the market: it rests (no matching runs in these tests).
  strategy = await createStrategy(t, admin, {
    nickname: 'BTC trend',
    strategyKey: 'btc-trend',
    takeProfits: [
      { percent: 50, sizePercent: 50 },
      { percent: 100, sizePercent: 50 },
    ],
  });
  await createStrategy(t, admin, { nickname: 'ETH idle', tradeCurrency: 'ETH', strategyKey: 'eth-idle' });
  for (const [name, s, body] of [
    ['alice', alice, { fixedAmount: 1000 }],
    ['bob', bob, { portfolioPercent: 20 }],
    ['carol', carol, { fixedAmount: 500, isActive: false }],
  ] as const) {
    const account = await createPaperAccount(t.app, s);
    bots[name] = (
      await createBot(t.app, s, {
        nickname: `${name} bot`,
        strategyId: strategy.id,
        tradingAccountId: account.id,
        isActive: true,
        ...body,
      })
    ).id;
  }
  // A long signal opens Alice's and Bob's trades with their ladders; Carol's bot is off and stays out.
  const worker = startTestAlertWorker(t);
  try {
    const { alertId } = await sendSignal(t.app, strategy, {
      action: 'long',
      symbol: 'BTCUSDT',
      id: 'tc-long',
    });
    expect(await waitForAlert(t, alertId)).toBe('succeeded');
  } finally {
    await worker.stop();
  }
});
afterAll(async () => {
  await t.close();
});

describe('trade control figures', () => {
  it('lists every strategy with its bots, active trades and open orders', async () => {
    const res = await call(t, admin, 'GET', '/admin/strategies');
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(
      res.body.results.map((s: { strategyKey: string }) => [s.strategyKey, s]),
    );
    expect(byKey['btc-trend']).toMatchObject({
      id: strategy.id,
      status: 'active',
      ownerEmail: ADMIN_EMAIL,
      figures: { botsTotal: 3, botsActive: 2, activeTrades: 2, openOrders: 4 },
    });
    expect(byKey['eth-idle'].figures).toEqual({
      botsTotal: 0,
      botsActive: 0,
      activeTrades: 0,
      openOrders: 0,
    });
  });

  it('shows one row per bot, whoever owns it', async () => {
    const s = await status();
    expect(s.strategy).toMatchObject({ id: strategy.id, figures: { botsTotal: 3, activeTrades: 2 } });
    const rows = byBot(s.bots as TradeControlStatus['bots']);
    expect(rows[bots.alice!]).toMatchObject({
      userId: alice.user.id,
      userEmail: alice.email,
      isActive: true,
      position: 'long',
      trade: { symbol: 'BTC/USDT', side: 'long', status: 'open' },
      openOrders: 2,
    });
    expect(rows[bots.carol!]).toMatchObject({ isActive: false, position: 'out', trade: null });
    expect(
      (await call(t, admin, 'GET', '/admin/strategies/00000000-0000-4000-8000-000000000000/trades/status'))
        .status,
    ).toBe(404);
  });
});

describe('push to take profit', () => {
  it("pushes each open trade's lowest take profit to market, once", async () => {
    const early = await act('push-to-tp', { takeProfitRole: 'tp2' });
    expect(early.body.results).toMatchObject({ done: 0, skipped: 3 });
    expect(byBot(early.body.results.outcomes as BotActionOutcome[])[bots.alice!]).toMatchObject({
      message: 'Waiting for TP1 to be filled first',
      code: 'TAKE_PROFIT_NOT_PUSHABLE',
      params: { variant: 'waiting', previousName: 'TP1' },
    });
    expect((await status()).strategy.figures.openOrders).toBe(4);

    const res = await act('push-to-tp');
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({
      strategyId: strategy.id,
      action: 'push-to-tp',
      done: 2,
      skipped: 1,
      failed: 0,
    });
    const outcomes = byBot(res.body.results.outcomes as BotActionOutcome[]);
    expect(outcomes[bots.alice!]).toMatchObject({ userId: alice.user.id, status: 'done' });
    expect(outcomes[bots.alice!]!.message).toMatch(/^Successfully pushed TP1 to market! Order ID: \S+$/);
    expect(outcomes[bots.alice!]).toMatchObject({
      code: 'TAKE_PROFIT_PUSHED',
      params: { name: 'TP1', orderId: expect.any(String) },
    });
    expect(outcomes[bots.alice!]!.message).toContain(String(outcomes[bots.alice!]!.params.orderId));
    expect(outcomes[bots.carol!]).toEqual({
      botId: bots.carol,
      userId: carol.user.id,
      status: 'skipped',
      message: 'No open position',
      code: 'NO_OPEN_POSITION',
      params: {},
      orderIds: [],
    });

    // TP1 cancelled and sold at market; TP2 still rests; the trades stay open with half left.
    const { rows } = await t.db.pool.query(
      `SELECT o.role, o.type, o.status FROM orders o JOIN trades tr ON tr.id = o.trade_id
       WHERE tr.bot_id = $1 AND o.role LIKE 'tp%' ORDER BY o.role, o.type`,
      [bots.alice],
    );
    expect(rows).toEqual([
      { role: 'tp1', type: 'limit', status: 'cancelled' },
      { role: 'tp1', type: 'market', status: 'filled' },
      { role: 'tp2', type: 'limit', status: 'open' },
    ]);
    const s = await status();
    expect(s.strategy.figures).toMatchObject({ activeTrades: 2, openOrders: 2 });
  });

  it('places nothing more when repeated: a pushed rung is reported, not pushed again', async () => {
    const [orders, venue] = [await orderCount(), await venueOrderCount()];
    const again = await act('push-to-tp', { takeProfitRole: 'tp1' });
    expect(again.body.results).toMatchObject({ done: 0, skipped: 3 });
    expect(byBot(again.body.results.outcomes as BotActionOutcome[])[bots.bob!]).toMatchObject({
      message: 'TP1 was already pushed to market',
      code: 'TAKE_PROFIT_ALREADY_PUSHED',
      params: { name: 'TP1' },
    });
    const waiting = await act('push-to-tp', { takeProfitRole: 'tp3' });
    expect(byBot(waiting.body.results.outcomes as BotActionOutcome[])[bots.bob!]).toMatchObject({
      message: 'TP3 is not available to push',
      code: 'TAKE_PROFIT_NOT_PUSHABLE',
      params: { name: 'TP3' },
    });
    expect(await orderCount()).toBe(orders);
    expect(await venueOrderCount()).toBe(venue);
  });
});

describe('cancel orders', () => {
  it('cancels every resting order of every bot, and repeating it finds nothing to cancel', async () => {
    const res = await act('cancel-orders');
    expect(res.body.results).toMatchObject({ action: 'cancel-orders', done: 2, skipped: 1, failed: 0 });
    expect(byBot(res.body.results.outcomes as BotActionOutcome[])[bots.alice!]).toMatchObject({
      message: '1 cancelled',
      code: 'ORDERS_CANCELLED',
      params: { cancelled: 1 },
    });
    expect((await status()).strategy.figures.openOrders).toBe(0);

    const [orders, venue] = [await orderCount(), await venueOrderCount()];
    const again = await act('cancel-orders');
    expect(again.body.results).toMatchObject({ done: 0, skipped: 3 });
    expect(
      (again.body.results.outcomes as BotActionOutcome[]).map(({ message, code, params }) => ({
        message,
        code,
        params,
      })),
    ).toEqual(Array(3).fill({ message: 'No open orders', code: 'NO_OPEN_ORDERS', params: {} }));
    expect(await orderCount()).toBe(orders);
    expect(await venueOrderCount()).toBe(venue);
  });

  it('with nothing left to push, push to take profit says so', async () => {
    const res = await act('push-to-tp');
    expect(res.body.results.outcomes.filter((o: { status: string }) => o.status === 'skipped')).toHaveLength(
      3,
    );
    expect(byBot(res.body.results.outcomes as BotActionOutcome[])[bots.alice!]).toMatchObject({
      message: 'No take profit left to push',
      code: 'NO_TAKE_PROFIT_TO_PUSH',
      params: {},
    });
  });
});

describe('close positions', () => {
  it('exits every open position at market and sets the bots out', async () => {
    const res = await act('close-positions');
    expect(res.body.results).toMatchObject({ action: 'close-positions', done: 2, skipped: 1, failed: 0 });
    const outcomes = byBot(res.body.results.outcomes as BotActionOutcome[]);
    expect(outcomes[bots.alice!]).toMatchObject({
      status: 'done',
      message: 'Position closed at market',
      code: 'POSITION_CLOSED',
      params: {},
    });
    expect(outcomes[bots.alice!]!.orderIds).toHaveLength(1);
    const s = await status();
    expect(s.strategy.figures).toMatchObject({ activeTrades: 0, openOrders: 0 });
    expect(s.bots.map((b: { position: string }) => b.position)).toEqual(['out', 'out', 'out']);
    const closed = await t.db.pool.query(
      `SELECT status, close_reason, realised_pnl FROM trades WHERE bot_id IN ($1, $2)`,
      [bots.alice, bots.bob],
    );
    expect(closed.rows.map((r) => r.status)).toEqual(['closed', 'closed']);
    expect(closed.rows[0].close_reason).toBe('admin close');
  });

  it('repeated, closes nothing twice', async () => {
    const [orders, venue] = [await orderCount(), await venueOrderCount()];
    const again = await act('close-positions');
    expect(again.body.results).toMatchObject({ done: 0, skipped: 3, failed: 0 });
    expect(await orderCount()).toBe(orders);
    expect(await venueOrderCount()).toBe(venue);
  });

  it('answers 404 for a strategy that does not exist', async () => {
    const res = await call(
      t,
      admin,
      'POST',
      '/admin/strategies/00000000-0000-4000-8000-000000000000/trades/close-positions',
      {},
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Strategy not found');
  });
});

describe('the audit log', () => {
  it('records each action with its per-bot tally', async () => {
    const rows = (await auditRows(t)).filter((r) => r.action.startsWith('strategy.'));
    expect(rows.map((r) => `${r.action}:${r.outcome}`)).toEqual([
      'strategy.push_to_tp:ok',
      'strategy.push_to_tp:ok',
      'strategy.push_to_tp:ok',
      'strategy.push_to_tp:ok',
      'strategy.cancel_orders:ok',
      'strategy.cancel_orders:ok',
      'strategy.push_to_tp:ok',
      'strategy.close_positions:ok',
      'strategy.close_positions:ok',
      'strategy.close_positions:error',
    ]);
    expect(rows[1]).toMatchObject({
      actor: `admin:${admin.user.id}`,
      target: `strategy:${strategy.id}`,
      details: { done: 2, skipped: 1, failed: 0 },
    });
    expect(rows.at(-1)!.error).toBe('Strategy not found');
  });
});

describe('push to take profit below the venue minimum', () => {
  it("runs the user's push checks: a level worth less than the spot minimum at market is refused before its limit is cancelled", async () => {
    // 9 USDT in two levels far above the market: each rests (≈ 6.7 USDT at its price) but is worth
    // ≈ 4.5 USDT at market, under the paper venue's 5 USDT minimum.
    const tiny = await createStrategy(t, admin, {
      nickname: 'BTC tiny',
      strategyKey: 'btc-tiny',
      takeProfits: [
        { percent: 50, sizePercent: 50 },
        { percent: 100, sizePercent: 50 },
      ],
    });
    const dave = await registerUser(t.app);
    const account = await createPaperAccount(t.app, dave);
    const bot = await createBot(t.app, dave, {
      nickname: 'tiny bot',
      strategyId: tiny.id,
      tradingAccountId: account.id,
      isActive: true,
      fixedAmount: 9,
    });
    const worker = startTestAlertWorker(t);
    try {
      const { alertId } = await sendSignal(t.app, tiny, {
        action: 'long',
        symbol: 'BTCUSDT',
        id: 'tiny-long',
      });
      expect(await waitForAlert(t, alertId)).toBe('succeeded');
    } finally {
      await worker.stop();
    }
    const res = await call(t, admin, 'POST', `/admin/strategies/${tiny.id}/trades/push-to-tp`, {});
    expect(res.status).toBe(200);
    const outcome = (res.body.results.outcomes as BotActionOutcome[]).find((o) => o.botId === bot.id)!;
    expect(outcome.status).toBe('failed');
    expect(outcome.message).toMatch(/^Failed to push TP1: Order value \S+ is below the minimum notional 5$/);
    // The paper venue's refusal nested with its own code and params, so the web says it in French too.
    expect(outcome.code).toBe('PUSH_FAILED');
    expect(outcome.params).toEqual({
      name: 'TP1',
      error: outcome.message.replace('Failed to push TP1: ', ''),
      'error.code': 'ORDER_TOO_SMALL',
      'error.variant': 'belowMinNotional',
      'error.value': expect.stringMatching(/^\d+(\.\d+)?$/),
      'error.min': '5',
    });
    const { rows } = await t.db.pool.query(
      `SELECT o.type, o.status FROM orders o JOIN trades tr ON tr.id = o.trade_id
       WHERE tr.bot_id = $1 AND o.role = 'tp1' ORDER BY o.type`,
      [bot.id],
    );
    expect(rows).toEqual([{ type: 'limit', status: 'open' }]);
  });
});
