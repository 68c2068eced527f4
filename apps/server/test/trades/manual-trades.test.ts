import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createBot, createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';

/** Manual trading from the Trading screen and the trades list, as a user does it through the API. */
let t: TradesApp;
let alice: Session;
let bob: Session;
let api: ReturnType<typeof asUser>;
let bobApi: ReturnType<typeof asUser>;
let spot: { id: string };
let futures: { id: string };
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  t = await startTradesApp({ paperVenueOptions: { market } });
  [alice, bob] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  api = asUser(t.app, alice);
  bobApi = asUser(t.app, bob);
  spot = await createPaperAccount(t.app, alice);
  futures = await createPaperAccount(t.app, alice, { nickname: 'Paper futures', marketType: 'future' });
});
afterAll(() => t.close());

const trade = (body: Record<string, unknown>) =>
  api.post('/api/trades', { accountId: spot.id, symbol: 'BTC/USDT', side: 'long', amount: '0.002', ...body });

describe('manual trades', () => {
  let marketTradeId: string;
  let limitTradeId: string;

  it('opens a market trade with no bot, amount rounded to the venue step', async () => {
    const res = await trade({ amount: '0.0020004', symbol: 'BTC-USDT' });
    expect(res.status).toBe(201);
    const { trade: t1, ladder, orders } = res.body.results;
    expect(t1).toMatchObject({
      botId: null,
      symbol: 'BTC/USDT',
      side: 'long',
      status: 'open',
      quantity: '0.002',
    });
    expect(ladder).toEqual([]);
    expect(orders).toHaveLength(1);
    marketTradeId = t1.id;
  });

  it('rests a limit entry below the market: the ladder waits for its fill', async () => {
    const res = await trade({
      price: '60000',
      takeProfits: [{ percent: 2, sizePercent: 100 }],
      stopLossPercent: 3,
    });
    expect(res.status).toBe(201);
    const d = res.body.results;
    expect(d.trade).toMatchObject({
      status: 'open',
      quantity: '0',
      stopLossPrice: null,
      stopLossPercent: '3',
    });
    expect(
      d.orders.map((o: { role: string; type: string; status: string; price: string }) => [
        o.role,
        o.type,
        o.status,
        o.price,
      ]),
    ).toEqual([['entry', 'limit', 'open', '60000']]);
    expect(d.ladder).toMatchObject([{ name: 'TP1', status: 'waiting', pushable: false }]);
    expect(
      (await api.put('/push-to-take-profit', { tradeId: d.trade.id, takeProfitRole: 'tp1', test: true })).body
        .message,
    ).toBe('TP1 is not available to push');
    limitTradeId = d.trade.id;
  });

  it('refuses shorts on spot and sizes under the venue minimum', async () => {
    const short = await trade({ side: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.message).toBe('Short trades need a futures account');
    const tiny = await trade({ amount: '0.00005' });
    expect(tiny.status).toBe(422);
    expect(tiny.body.message).toMatch(/minimum notional/);
    const unknown = await trade({ symbol: 'DOGE/USDT' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe('DOGE/USDT is not traded on paper');
  });

  it('opens a short on a futures account with its ladder below the entry', async () => {
    const res = await trade({
      accountId: futures.id,
      side: 'short',
      takeProfits: [{ percent: 1, sizePercent: 100 }],
      stop_loss_percent: '2',
    });
    expect(res.status).toBe(201);
    const d = res.body.results;
    expect(d.trade).toMatchObject({ side: 'short', entryPrice: '64990', stopLossPrice: '66289.8' });
    expect(d.ladder).toMatchObject([{ status: 'placed', price: '64340.1', amount: '0.002' }]);
    expect(d.orders[1]).toMatchObject({ side: 'buy', reduceOnly: true });
  });

  it('refuses a second trade on a futures symbol the account already holds (one position per symbol)', async () => {
    const res = await trade({ accountId: futures.id, side: 'long' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'POSITION_TAKEN', params: { symbol: 'BTC/USDT' } });
  });

  it('lists the user’s trades newest first, filtered by account, symbol, status, bot and dates', async () => {
    const all = await api.get('/api/trades');
    expect(all.body).toMatchObject({ success: true, total: 3, page: 1, pageSize: 50 });
    expect(all.body.results[0].side).toBe('short');
    expect((await api.get(`/api/trades?account_id=${spot.id}`)).body.total).toBe(2);
    expect((await api.get(`/api/trades?accountId=${futures.id}`)).body.total).toBe(1);
    expect((await api.get('/api/trades?symbol=BTC-USDT&status=open')).body.total).toBe(3);
    expect((await api.get('/api/trades?status=closed')).body.total).toBe(0);
    expect((await api.get('/api/trades?from=2000-01-01&to=2001-01-01')).body.total).toBe(0);
    expect((await api.get(`/api/trades?from=${Date.now() - 60_000}`)).body.total).toBe(3);
    const paged = await api.get('/api/trades?page=2&pageSize=2');
    expect(paged.body).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.body.results).toHaveLength(1);

    const strategy = (
      await api.post('/api/strategies', { nickname: 'S', tradeCurrency: 'BTC', timeFrame: '1h' })
    ).body.results;
    const bot = await createBot(t.app, alice, {
      strategyId: strategy.id,
      tradingAccountId: spot.id,
      fixedAmount: 100,
    });
    expect((await api.get(`/api/trades?bot_id=${bot.id}`)).body.total).toBe(0);
  });

  it('edits the stop and re-places the take-profits of an open trade', async () => {
    const withLadder = await trade({ takeProfits: [{ percent: 1, sizePercent: 100 }] });
    const id = withLadder.body.results.trade.id;
    const oldTp = withLadder.body.results.orders[1];

    const res = await api.put(`/api/trades/${id}`, {
      stopLossPrice: '64000',
      takeProfits: [
        { percent: 2, sizePercent: 50 },
        { percent: 4, sizePercent: 50 },
      ],
    });
    expect(res.status).toBe(200);
    const d = res.body.results;
    expect(d.trade).toMatchObject({ stopLossPrice: '64000', stopLossPercent: null });
    expect(
      d.ladder.map((l: { name: string; status: string; price: string; amount: string }) => [
        l.name,
        l.status,
        l.price,
        l.amount,
      ]),
    ).toEqual([
      ['TP1', 'placed', '66300', '0.001'],
      ['TP2', 'placed', '67600', '0.001'],
    ]);
    expect(d.orders.find((o: { id: string }) => o.id === oldTp.id).status).toBe('cancelled');

    const wrongSide = await api.put(`/api/trades/${id}`, { stopLossPrice: '70000' });
    expect(wrongSide.status).toBe(422);
    expect(wrongSide.body.message).toMatch(/must be below the current price/);
    const removed = await api.put(`/api/trades/${id}`, { stopLossPrice: null });
    expect(removed.body.results.trade.stopLossPrice).toBeNull();
  });

  it('completes a trade at market, once, and says how it completed', async () => {
    const before = await api.get(`/api/trades/${marketTradeId}/complete`);
    expect(before.body.results).toMatchObject({ completed: false, status: 'open', order: null });

    const done = await api.post(`/api/trades/${marketTradeId}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.results).toMatchObject({
      tradeId: marketTradeId,
      completed: true,
      status: 'closed',
      closeReason: 'manual close',
      exitPrice: '64990',
      order: { role: 'exit', type: 'market', status: 'filled', amount: '0.002' },
    });
    expect(Number(done.body.results.pnl)).toBeLessThan(0);

    const again = await api.post(`/api/trades/${marketTradeId}/complete`);
    expect(again.body.results).toEqual(done.body.results);
    expect((await api.get(`/api/trades/${marketTradeId}`)).body.results.orders).toHaveLength(2);
    expect((await api.get(`/api/trades/${marketTradeId}/complete`)).body.results).toEqual(done.body.results);
  });

  it('completing a trade whose limit entry never filled cancels it', async () => {
    const res = await api.post(`/api/trades/${limitTradeId}/complete`);
    expect(res.body.results).toMatchObject({
      completed: true,
      status: 'cancelled',
      closeReason: 'manual close',
    });
    const d = (await api.get(`/api/trades/${limitTradeId}`)).body.results;
    expect(d.orders.map((o: { status: string }) => o.status)).toEqual(['cancelled']);
  });

  it('deletes only trades that are over', async () => {
    const open = (await api.get('/api/trades?status=open')).body.results[0];
    const refused = await api.delete(`/api/trades/${open.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, message: 'Close the trade before deleting it' });
    expect((await api.put(`/api/trades/${marketTradeId}`, { stopLossPercent: 1 })).status).toBe(409);

    expect((await api.delete(`/api/trades/${marketTradeId}`)).body).toEqual({
      success: true,
      message: 'Trade deleted',
    });
    expect((await api.get(`/api/trades/${marketTradeId}`)).status).toBe(404);
  });
});

describe('another user', () => {
  it('gets 404 for every trade of someone else, and an empty list', async () => {
    const id = (await api.get('/api/trades')).body.results[0].id;
    const calls = [
      bobApi.get(`/api/trades/${id}`),
      bobApi.put(`/api/trades/${id}`, { stopLossPercent: 1 }),
      bobApi.delete(`/api/trades/${id}`),
      bobApi.post(`/api/trades/${id}/complete`),
      bobApi.get(`/api/trades/${id}/complete`),
      bobApi.put('/push-to-take-profit', { tradeId: id, takeProfitRole: 'tp1', test: true }),
      bobApi.post('/api/trades', { accountId: spot.id, symbol: 'BTC/USDT', side: 'long', amount: '0.001' }),
      bobApi.get('/api/trades/not-a-trade-id'),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
    }
    expect((await bobApi.get('/api/trades')).body).toMatchObject({ total: 0, results: [] });
    expect((await bobApi.get(`/api/trades?account_id=${spot.id}`)).body.total).toBe(0);
  });
});

describe('bad payloads', () => {
  it.each([
    [{ amount: 'abc' }, 'Please enter a valid amount'],
    [{ amount: '-1' }, 'Please enter a valid amount'],
    [{ amount: 0 }, 'Please enter a valid amount'],
    [{ price: 'cheap' }, 'Please enter a valid price'],
    [{ price: '0' }, 'Please enter a valid price'],
    [{ accountId: undefined }, 'This field is required'],
    [{ side: 'sideways' }, 'Please choose long or short'],
    [{ symbol: 'BTCUSDT' }, 'Please choose a market such as BTC/USDT'],
    [
      {
        takeProfits: [
          { percent: 1, sizePercent: 80 },
          { percent: 2, sizePercent: 30 },
        ],
      },
      'Take-profit sizes add up to more than 100%',
    ],
  ])('POST /api/trades %j → 400 %s', async (body, message) => {
    const res = await trade(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
  });

  it('refuses an empty edit and a stop given two ways, and a bad list filter', async () => {
    const id = (await api.get('/api/trades?status=open')).body.results[0].id;
    expect((await api.put(`/api/trades/${id}`, {})).body.message).toBe('Nothing to change');
    expect(
      (await api.put(`/api/trades/${id}`, { stopLossPercent: 1, stopLossPrice: '60000' })).body.message,
    ).toBe('Give the stop-loss as a percent or as a price, not both');
    const badDate = await api.get('/api/trades?from=yesterday');
    expect(badDate.status).toBe(400);
    expect(badDate.body.message).toBe('Please enter a valid date (querystring)');
    expect((await api.get('/api/trades?status=sleeping')).status).toBe(400);
  });
});
