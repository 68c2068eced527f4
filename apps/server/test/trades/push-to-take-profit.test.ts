import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Push to take profit as a user does it from TradeDetail, on a paper account whose market the test
 * scripts (asks from 65000, bids from 64990, 0.1 % fees). No worker here: what the user sees comes from
 * the API calls alone.
 */
let t: TradesApp;
let alice: Session;
let bob: Session;
let aliceApi: ReturnType<typeof asUser>;
let tradeId: string;
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market } });
  [alice, bob] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  aliceApi = asUser(t.app, alice);
  const account = await createPaperAccount(t.app, alice);
  const created = await aliceApi.post('/api/trades', {
    accountId: account.id,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.01',
    takeProfits: [
      { percent: 1, sizePercent: 50 },
      { percent: 2, sizePercent: 30 },
      { percent: 3, sizePercent: 20 },
    ],
    stopLossPercent: 2,
  });
  expect(created.status).toBe(201);
  tradeId = created.body.results.trade.id;
});
afterAll(() => t.close());

const push = (body: Record<string, unknown>, session = alice) =>
  asUser(t.app, session).put('/push-to-take-profit', {
    tradeId,
    botId: null,
    userId: session.user.id,
    ...body,
  });
const detail = async () => (await aliceApi.get(`/api/trades/${tradeId}`)).body.results;

describe('the take-profit ladder after the entry', () => {
  it('is placed at once, sized from the position, summing exactly to it', async () => {
    const d = await detail();
    expect(d.trade).toMatchObject({
      status: 'open',
      quantity: expect.any(String),
      stopLossPrice: expect.any(String),
    });
    expect(Number(d.trade.entryPrice)).toBe(65000);
    expect(Number(d.trade.stopLossPrice)).toBe(63700);
    expect(
      d.ladder.map((l: { name: string; status: string; price: string; amount: string }) => [
        l.name,
        l.status,
        Number(l.price),
        l.amount,
      ]),
    ).toEqual([
      ['TP1', 'placed', 65650, '0.005'],
      ['TP2', 'placed', 66300, '0.003'],
      ['TP3', 'placed', 66950, '0.002'],
    ]);
    const total = d.ladder.reduce(
      (s: number, l: { amount: string }) => s + Math.round(Number(l.amount) * 1e5),
      0,
    );
    expect(total).toBe(1000); // 0.01 BTC in 0.00001 steps
    expect(d.ladder.map((l: { pushable: boolean }) => l.pushable)).toEqual([true, false, false]);
    // The entry, then one resting limit sell per level; entry and TP fills in the timeline.
    expect(
      d.orders.map((o: { role: string; type: string; status: string }) => `${o.role}:${o.type}:${o.status}`),
    ).toEqual(['entry:market:filled', 'tp1:limit:open', 'tp2:limit:open', 'tp3:limit:open']);
    expect(d.fills).toHaveLength(1);
    expect(d.timeline[0]).toMatchObject({ kind: 'order', role: 'entry' });
  });
});

describe('PUT /push-to-take-profit', () => {
  it('refuses TP2 while TP1 is not filled', async () => {
    const res = await push({ takeProfitRole: 'tp2' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      error: 'TAKE_PROFIT_NOT_PUSHABLE',
      message: 'Waiting for TP1 to be filled first',
      params: { variant: 'waiting', previousName: 'TP1' },
    });
  });

  it('refuses a level the trade does not have', async () => {
    const res = await push({ takeProfitRole: 'tp7' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('TP7 is not available to push');
  });

  it('validates with test: true and changes nothing', async () => {
    const before = await detail();
    const res = await push({ takeProfitRole: 'tp1', test: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'TP1 can be pushed to market',
      code: 'TAKE_PROFIT_PUSHABLE',
      params: { name: 'TP1' },
      results: { tradeId, takeProfitRole: 'tp1', test: true, orderId: null, amount: '0.005' },
    });
    const after = await detail();
    expect(after.orders).toEqual(before.orders);
    expect(after.ladder).toEqual(before.ladder);
  });

  it('will not let the body speak for another user or another bot', async () => {
    const asSomeoneElse = await push({ takeProfitRole: 'tp1', userId: bob.user.id });
    expect(asSomeoneElse.status).toBe(403);
    expect(asSomeoneElse.body.success).toBe(false);
    const wrongBot = await push({ takeProfitRole: 'tp1', botId: '00000000-0000-4000-8000-000000000001' });
    expect(wrongBot.status).toBe(400);
    expect(wrongBot.body.message).toBe('botId does not match the trade');
    const bobsTry = await push({ takeProfitRole: 'tp1' }, bob);
    expect(bobsTry.status).toBe(404);
    expect(bobsTry.body).toMatchObject({ success: false, error: 'NOT_FOUND' });
  });

  it('answers 400 with a message for a malformed request', async () => {
    const res = await push({ takeProfitRole: 'take-profit-1' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      error: 'VALIDATION_ERROR',
      message: 'takeProfitRole must be tp1, tp2, …',
    });
    const noTrade = await asUser(t.app, alice).put('/push-to-take-profit', { takeProfitRole: 'tp1' });
    expect(noTrade.status).toBe(400);
  });

  it('pushes TP1: its limit order is cancelled and the rest sold at market, with the order id in the message', async () => {
    const res = await push({ takeProfitRole: 'tp1' });
    expect(res.status).toBe(200);
    const { orderId } = res.body.results;
    expect(orderId).toEqual(expect.any(String));
    expect(res.body.message).toBe(`Successfully pushed TP1 to market! Order ID: ${orderId}`);
    expect(res.body).toMatchObject({ code: 'TAKE_PROFIT_PUSHED', params: { name: 'TP1', orderId } });
    expect(res.body.results).toMatchObject({
      status: 'filled',
      amount: '0.005',
      filled: '0.005',
      test: false,
    });

    const d = await detail();
    const tp1Orders = d.orders.filter((o: { role: string }) => o.role === 'tp1');
    expect(tp1Orders.map((o: { type: string; status: string }) => `${o.type}:${o.status}`)).toEqual([
      'limit:cancelled',
      'market:filled',
    ]);
    expect(d.ladder[0]).toMatchObject({
      name: 'TP1',
      status: 'filled',
      pushed: true,
      orderId,
      filled: '0.005',
    });
    expect(Number(d.ladder[0].price)).toBe(64990); // sold into the best bid
    expect(d.ladder.slice(1).map((l: { status: string }) => l.status)).toEqual(['placed', 'placed']);
    // TP1 done, but at the bid (64990) below break-even (entry 65000 + fees = 65130.14): a stop there would
    // fire at once, so it waits until the market is above it.
    expect(d.trade).toMatchObject({ stopMovedToBreakEven: false, openQuantity: '0.005', status: 'open' });
    expect(d.trade.stopLossPrice === null || Number(d.trade.stopLossPrice) < 64990).toBe(true);
    expect(d.ladder.map((l: { pushable: boolean }) => l.pushable)).toEqual([false, true, false]);
  });

  it('refuses a filled TP: TP1 is not available to push', async () => {
    const ordersBefore = (await detail()).orders.length;
    const res = await push({ takeProfitRole: 'tp1' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      error: 'TAKE_PROFIT_NOT_PUSHABLE',
      message: 'TP1 is not available to push',
      params: { name: 'TP1' },
    });
    expect((await detail()).orders).toHaveLength(ordersBefore);
  });

  it('pushes the rest of the ladder in order, and the trade closes when the last level is done', async () => {
    expect((await push({ takeProfitRole: 'tp3' })).body.message).toBe('Waiting for TP2 to be filled first');
    expect((await push({ takeProfitRole: 'tp2' })).status).toBe(200);
    expect((await push({ takeProfitRole: 'tp3' })).status).toBe(200);
    const d = await detail();
    expect(d.trade).toMatchObject({ status: 'closed', closeReason: 'take profit', openQuantity: '0' });
    expect(d.ladder.map((l: { status: string }) => l.status)).toEqual(['filled', 'filled', 'filled']);
    // Four taker fills at 0.1 %: entry 650 USDT, exits 0.01 BTC at the best bid 64990.
    expect(Number(d.trade.commission)).toBeCloseTo(0.65 + 0.6499, 8);
    expect(Number(d.trade.pnl)).toBeCloseTo(-0.1 - 0.65 - 0.6499, 8);
    expect((await push({ takeProfitRole: 'tp3' })).body.message).toBe('TP3 is not available to push');
  });
});
