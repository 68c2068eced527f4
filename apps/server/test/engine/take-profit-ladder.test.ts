import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createBot, createPaperAccount, sendSignal, waitForAlert } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, eventually, startAlerts, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * A bot's trade on the paper venue, start to finish, with the worker's trade monitor running: the
 * signal opens it, the ladder rests on the venue, the scripted price walks through the levels (asks
 * from 65000, bids from 64990, 0.1 % fees), the stop follows TP1 to break-even and the last level
 * closes the trade.
 */
let t: TradesApp;
let alerts: ReturnType<typeof startAlerts>;
let alice: Session;
let api: ReturnType<typeof asUser>;
let botId: string;
let strategy: { id: string; strategyKey: string; webhookSecret: string };
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ monitor: true, paperVenueOptions: { market } });
  alerts = startAlerts(t);
  alice = await registerUser(t.app);
  api = asUser(t.app, alice);
  strategy = (
    await api.post('/api/strategies', {
      nickname: 'BTC ladder',
      tradeCurrency: 'BTC',
      timeFrame: '1h',
      takeProfits: [
        { role: 'tp1', percent: 1, sizePercent: 50 },
        { role: 'tp2', percent: 2, sizePercent: 50 },
      ],
      stopLossPercent: 1.5,
      breakEvenAfterTp1: true,
    })
  ).body.results;
  const account = await createPaperAccount(t.app, alice);
  botId = (
    await createBot(t.app, alice, {
      strategyId: strategy.id,
      tradingAccountId: account.id,
      fixedAmount: 650,
      isActive: true,
    })
  ).id;
});
afterAll(async () => {
  await alerts.stop();
  await t.close();
});

const openTrade = async () => (await api.get(`/api/trades?bot_id=${botId}&status=open`)).body.results[0];
const detail = async (id: string) => (await api.get(`/api/trades/${id}`)).body.results;
const bot = async () => (await api.get(`/api/bots/${botId}`)).body.results;

describe('a bot trade worked by its take-profit ladder', () => {
  let tradeId: string;

  it('opens on the signal with the ladder resting and the stop set', async () => {
    const { alertId } = await sendSignal(t.app, strategy, {
      action: 'long',
      symbol: 'BTCUSDT',
      id: 'ladder-1',
    });
    expect(await waitForAlert(t as never, alertId)).toBe('succeeded');
    tradeId = (await openTrade()).id;
    const d = await detail(tradeId);
    expect(d.trade).toMatchObject({
      botId,
      status: 'open',
      quantity: '0.01',
      entryPrice: '65000',
      stopLossPrice: '64025',
    });
    expect(
      d.ladder.map((l: { name: string; status: string; price: string; amount: string }) => [
        l.name,
        l.status,
        l.price,
        l.amount,
      ]),
    ).toEqual([
      ['TP1', 'placed', '65650', '0.005'],
      ['TP2', 'placed', '66300', '0.005'],
    ]);
    expect((await bot()).position).toBe('long');
  });

  it('fills TP1 on the venue and moves the stop to break-even', async () => {
    market.moveTo('65700');
    const d = await eventually(
      () => detail(tradeId),
      (x) => x.trade.stopMovedToBreakEven,
    );
    expect(d.ladder.map((l: { status: string }) => l.status)).toEqual(['filled', 'placed']);
    // 65000 × 1.001 / 0.999 = 65130.13…, rounded up to the tick so hitting it never loses.
    expect(d.trade).toMatchObject({ status: 'open', stopLossPrice: '65130.14', openQuantity: '0.005' });
    expect(
      d.fills.map((f: { role: string; price: string; amount: string; fee: string }) => [
        f.role,
        f.price,
        f.amount,
        f.fee,
      ]),
    ).toEqual([
      ['entry', '65000', '0.01', '0.65'],
      ['tp1', '65650', '0.005', '0.32825'],
    ]);
  });

  it('closes the trade when the last level fills, with PnL from the fills, and the bot goes out', async () => {
    market.moveTo('66400');
    const d = await eventually(
      () => detail(tradeId),
      (x) => x.trade.status === 'closed',
    );
    expect(d.ladder.map((l: { status: string }) => l.status)).toEqual(['filled', 'filled']);
    expect(d.trade).toMatchObject({
      closeReason: 'take profit',
      exitPrice: '65975',
      commission: '1.30975',
      // (65650 − 65000) × 0.005 + (66300 − 65000) × 0.005 − fees
      pnl: '8.44025',
      openQuantity: '0',
    });
    expect(Number(d.trade.pnlPercent)).toBeCloseTo((8.44025 / 650) * 100, 10);
    expect(d.trade.durationMs).toBeGreaterThanOrEqual(0);
    await eventually(bot, (b) => b.position === 'out');
  });

  it('exits at market when the stop is crossed, cancelling the resting ladder', async () => {
    market.moveTo('65000');
    const { alertId } = await sendSignal(t.app, strategy, {
      action: 'long',
      symbol: 'BTCUSDT',
      id: 'ladder-2',
    });
    expect(await waitForAlert(t as never, alertId)).toBe('succeeded');
    const second = (await openTrade()).id;
    expect(second).not.toBe(tradeId);
    market.moveTo('64000');
    const d = await eventually(
      () => detail(second),
      (x) => x.trade.status === 'closed',
    );
    expect(d.trade.closeReason).toBe('stop loss');
    expect(
      d.orders.map((o: { role: string; type: string; status: string }) => `${o.role}:${o.type}:${o.status}`),
    ).toEqual(['entry:market:filled', 'tp1:limit:cancelled', 'tp2:limit:cancelled', 'stop:market:filled']);
    expect(d.ladder.map((l: { status: string }) => l.status)).toEqual(['cancelled', 'cancelled']);
    expect(Number(d.trade.pnl)).toBeLessThan(0);
    await eventually(bot, (b) => b.position === 'out');
  });
});
