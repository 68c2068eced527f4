import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';

/** GET /api/orders (issue 21): a pending order read as an order, cancelled through its trade's complete. */
let t: TradesApp;
let alice: Session;
let api: ReturnType<typeof asUser>;
let bobApi: ReturnType<typeof asUser>;
let spot: { id: string };
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market } });
  const [a, bob] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  alice = a;
  api = asUser(t.app, alice);
  bobApi = asUser(t.app, bob);
  spot = await createPaperAccount(t.app, alice, { nickname: 'Paper spot' });
});
afterAll(() => t.close());

const trade = (body: Record<string, unknown>) =>
  api.post('/api/trades', { accountId: spot.id, symbol: 'BTC/USDT', side: 'long', amount: '0.002', ...body });

describe('orders', () => {
  let limitTradeId: string;

  it('lists a resting limit entry as an open order, with its account, price, amount and filled %', async () => {
    const res = await trade({ price: '60000', stopLossPercent: 3 });
    expect(res.status).toBe(201);
    limitTradeId = res.body.results.trade.id;
    await trade({ takeProfits: [{ percent: 2, sizePercent: 100 }] });

    const open = await api.get('/api/orders');
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ success: true, page: 1, pageSize: 50 });
    const entry = open.body.results.find((o: { tradeId: string }) => o.tradeId === limitTradeId);
    expect(entry).toMatchObject({
      role: 'entry',
      side: 'buy',
      type: 'limit',
      price: '60000',
      amount: '0.002',
      filled: '0',
      filledPercent: '0',
      status: 'open',
      tradeStatus: 'open',
      botId: null,
      botName: null,
      tradingAccountId: spot.id,
      accountName: 'Paper spot',
      cancellable: true,
    });
    // The market trade's take-profit rests too: part of a position, not cancellable from here.
    const tp = open.body.results.find((o: { role: string }) => o.role === 'tp1');
    expect(tp).toMatchObject({ side: 'sell', type: 'limit', status: 'open', cancellable: false });
    expect(open.body.total).toBe(2);
    // `all` adds the filled market entry.
    const all = await api.get('/api/orders?scope=all');
    expect(all.body.total).toBe(3);
    expect(all.body.results.find((o: { type: string }) => o.type === 'market')).toMatchObject({
      status: 'filled',
      filledPercent: '100',
      cancellable: false,
    });
  });

  it('scopes every read to the owner and filters by account', async () => {
    expect((await bobApi.get('/api/orders?scope=all')).body).toMatchObject({ results: [], total: 0 });
    expect((await bobApi.get(`/api/orders?accountId=${spot.id}`)).body.total).toBe(0);
    expect((await api.get(`/api/orders?accountId=${spot.id}`)).body.total).toBe(2);
    const other = await createPaperAccount(t.app, alice, { nickname: 'Other' });
    expect((await api.get(`/api/orders?accountId=${other.id}`)).body.total).toBe(0);
    expect((await api.get('/api/orders?scope=some')).status).toBe(400);
    expect((await api.get('/api/orders?accountId=nope')).status).toBe(400);
  });

  it('cancels an unfilled entry through its trade: the order and the trade are cancelled, nothing sold', async () => {
    const done = await api.post(`/api/trades/${limitTradeId}/complete`);
    expect(done.status).toBe(200);
    const detail = (await api.get(`/api/trades/${limitTradeId}`)).body.results;
    expect(detail.trade.status).toBe('cancelled');
    expect(detail.orders.map((o: { role: string; status: string }) => [o.role, o.status])).toEqual([
      ['entry', 'cancelled'],
    ]);
    const open = await api.get('/api/orders');
    expect(open.body.results.map((o: { role: string }) => o.role)).toEqual(['tp1']);
    // Calling it again (a double click, a retry) changes nothing.
    expect((await api.post(`/api/trades/${limitTradeId}/complete`)).status).toBe(200);
    const all = await api.get('/api/orders?scope=all');
    expect(all.body.results.find((o: { tradeId: string }) => o.tradeId === limitTradeId)).toMatchObject({
      status: 'cancelled',
      tradeStatus: 'cancelled',
      cancellable: false,
    });
  });
});
