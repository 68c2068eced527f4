import type { TradeControlScope, TradeControlStatus } from '@kairos/contract';
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

// Issue 21: what a strategy-wide push or close would reach, pausing a strategy, and per-bot actions.

let t: TestApp;
let admin: Session;
let alice: Session;
let bob: Session;
let carol: Session;
let strategy: { id: string; strategyKey: string; webhookSecret: string };
const bots: Record<string, string> = {};
const missing = '00000000-0000-4000-8000-000000000000';

const scope = async (action: string) => {
  const res = await call(t, admin, 'GET', `/admin/strategies/${strategy.id}/trades/scope?action=${action}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results as TradeControlScope;
};
const botRows = async () => {
  const res = await call(t, admin, 'GET', `/admin/strategies/${strategy.id}/trades/status`);
  return Object.fromEntries((res.body.results as TradeControlStatus).bots.map((b) => [b.botId, b])) as Record<
    string,
    TradeControlStatus['bots'][number]
  >;
};
const openTradesOf = (botId: string) =>
  count(t, `SELECT count(*) AS n FROM trades WHERE bot_id = $1 AND status IN ('open', 'closing')`, [botId]);

async function signal(action: 'long' | 'exit', id: string) {
  const worker = startTestAlertWorker(t);
  try {
    const { alertId } = await sendSignal(t.app, strategy, { action, symbol: 'BTCUSDT', id });
    return await waitForAlert(t, alertId);
  } finally {
    await worker.stop();
  }
}

beforeAll(async () => {
  t = await createTestApp({ KAIROS_ADMIN_EMAIL: ADMIN_EMAIL });
  admin = await registerUser(t.app, ADMIN_EMAIL);
  [alice, bob, carol] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
  // A two-level ladder far above the market: TP1 and TP2 (half the position each) rest.
  strategy = await createStrategy(t, admin, {
    nickname: 'BTC trend',
    strategyKey: 'btc-scope',
    takeProfits: [
      { percent: 50, sizePercent: 50 },
      { percent: 100, sizePercent: 50 },
    ],
  });
  for (const [name, s, body] of [
    ['alice', alice, { fixedAmount: 1000 }],
    ['bob', bob, { fixedAmount: 500 }],
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
  expect(await signal('long', 'scope-long')).toBe('succeeded');
});
afterAll(async () => {
  await t.close();
});

describe('the scope of a strategy-wide action', () => {
  it('close: the users and trades reached, what they hold at the last price, and the estimated result', async () => {
    const s = await scope('close-positions');
    expect(s).toMatchObject({
      strategyId: strategy.id,
      action: 'close-positions',
      users: 2,
      trades: 2,
      unpriced: 0,
    });
    expect(s.totals.map((x) => x.currency)).toEqual(['USDT']);
    // 1,000 + 500 USDT went in; the paper price moves a little and the entry paid its fee.
    const notional = Number(s.totals[0]!.notional);
    expect(notional).toBeGreaterThan(1400);
    expect(notional).toBeLessThan(1600);
    // The result of closing now: the move less the fees (entry paid, exit estimated) — never a raw notional.
    const pnl = Number(s.totals[0]!.estimatedPnl);
    expect(Math.abs(pnl)).toBeLessThan(notional * 0.05);
    expect(pnl).not.toBe(0);
  });

  it('push: only each trade’s lowest take profit still resting (TP1: half of each position)', async () => {
    const close = await scope('close-positions');
    const push = await scope('push-to-tp');
    expect(push).toMatchObject({ action: 'push-to-tp', users: 2, trades: 2, unpriced: 0 });
    const ratio = Number(push.totals[0]!.notional) / Number(close.totals[0]!.notional);
    expect(ratio).toBeGreaterThan(0.45);
    expect(ratio).toBeLessThan(0.55);
  });

  it('each bot’s trade shows its last price, unrealised PnL and the estimated close', async () => {
    const rows = await botRows();
    const trade = rows[bots.alice!]!.trade!;
    expect(Number(trade.currentPrice)).toBeGreaterThan(0);
    expect(trade.unrealisedPnl).toMatch(/^-?\d+(\.\d+)?$/);
    // Closing costs the exit's fee on top of the unrealised PnL.
    expect(Number(trade.estimatedClosePnl)).toBeLessThan(Number(trade.unrealisedPnl));
    expect(rows[bots.carol!]!.trade).toBeNull();
  });

  it('refuses an unknown action and an unknown strategy, with a code', async () => {
    const bad = await call(t, admin, 'GET', `/admin/strategies/${strategy.id}/trades/scope?action=sell-all`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR' });
    const gone = await call(t, admin, 'GET', `/admin/strategies/${missing}/trades/scope`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: 'NOT_FOUND', params: { variant: 'strategy' } });
  });
});

describe('pausing a strategy', () => {
  it('stops new entries from its alerts for every subscriber, and resuming lets them in again', async () => {
    const paused = await call(t, admin, 'PUT', `/admin/strategies/${strategy.id}/status`, {
      status: 'paused',
    });
    expect(paused.status).toBe(200);
    expect(paused.body.results).toMatchObject({ id: strategy.id, status: 'paused' });
    // Carol switches her bot on: a long signal now opens nothing for her while the strategy is paused.
    expect((await call(t, carol, 'PUT', `/api/bots/${bots.carol}`, { isActive: true })).status).toBe(200);
    await signal('long', 'scope-long-paused');
    expect(await openTradesOf(bots.carol!)).toBe(0);
    // The others' trades are left as they were.
    expect(await openTradesOf(bots.alice!)).toBe(1);

    const resumed = await call(t, admin, 'PUT', `/admin/strategies/${strategy.id}/status`, {
      status: 'active',
    });
    expect(resumed.body.results).toMatchObject({ status: 'active' });
    expect(await signal('long', 'scope-long-resumed')).toBe('succeeded');
    expect(await openTradesOf(bots.carol!)).toBe(1);

    const audit = await auditRows(t);
    expect(audit.filter((r) => r.action === 'strategy.pause')).toMatchObject([
      { target: `strategy:${strategy.id}`, outcome: 'ok' },
    ]);
    expect(audit.filter((r) => r.action === 'strategy.resume')).toHaveLength(1);
  });

  it('refuses a retired strategy and a status other than active or paused', async () => {
    const retired = await createStrategy(t, admin, {
      nickname: 'Old',
      strategyKey: 'old-one',
      status: 'retired',
    });
    const res = await call(t, admin, 'PUT', `/admin/strategies/${retired.id}/status`, { status: 'paused' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'STRATEGY_RETIRED', message: 'This strategy is retired' });
    const bad = await call(t, admin, 'PUT', `/admin/strategies/${strategy.id}/status`, { status: 'retired' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'VALIDATION_ERROR' });
  });
});

describe('per-bot actions', () => {
  it('pauses one bot: its trade stays, a repeat says it already was', async () => {
    const res = await call(t, admin, 'POST', `/admin/bots/${bots.bob}/pause`, {});
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({
      botId: bots.bob,
      userId: bob.user.id,
      status: 'done',
      message: 'Bot paused',
      code: 'BOT_PAUSED',
      params: {},
    });
    const rows = await botRows();
    expect(rows[bots.bob!]).toMatchObject({ isActive: false });
    expect(rows[bots.alice!]).toMatchObject({ isActive: true });
    expect(await openTradesOf(bots.bob!)).toBe(1);
    const again = await call(t, admin, 'POST', `/admin/bots/${bots.bob}/pause`, {});
    expect(again.body.results).toMatchObject({
      status: 'skipped',
      message: 'Bot already paused',
      code: 'BOT_ALREADY_PAUSED',
      params: {},
    });
  });

  it('closes one bot’s trade at market and leaves the others open', async () => {
    const res = await call(t, admin, 'POST', `/admin/bots/${bots.alice}/close-position`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toMatchObject({
      botId: bots.alice,
      userId: alice.user.id,
      status: 'done',
      message: 'Position closed at market',
      code: 'POSITION_CLOSED',
      params: {},
    });
    expect(await openTradesOf(bots.alice!)).toBe(0);
    expect(await openTradesOf(bots.bob!)).toBe(1);
    const again = await call(t, admin, 'POST', `/admin/bots/${bots.alice}/close-position`, {});
    expect(again.body.results).toMatchObject({
      status: 'skipped',
      message: 'No open position',
      code: 'NO_OPEN_POSITION',
      params: {},
    });
    expect((await auditRows(t, 'bot.close_position')).map((r) => r.outcome)).toEqual(['ok', 'ok']);
  });

  it('answers 404 for a bot that does not exist', async () => {
    const res = await call(t, admin, 'POST', `/admin/bots/${missing}/pause`, {});
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'NOT_FOUND', params: { variant: 'bot' } });
  });
});
