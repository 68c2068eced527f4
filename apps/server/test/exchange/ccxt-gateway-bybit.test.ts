import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenRequest } from '../../src/engine/trade-lifecycle';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import {
  ExchangeAuthenticationError,
  InsufficientFundsError,
  InvalidOrderError,
  OrderNotFoundError,
  RateLimitedError,
  UnknownOutcomeError,
  UnknownSymbolError,
} from '../../src/exchange/errors';
import type { ExchangeGateway } from '../../src/exchange/gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { registerUser, type Session } from '../support/users';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';
import { BybitTestServer, DEFAULT_BYBIT_MARKETS } from '../fakes/bybit-server';

const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };
const ALICE = { apiKey: 'bybitAliceKey00000001', secret: 'alice-secret' };
const BOB = { apiKey: 'bybitBobKey0000000002', secret: 'bob-secret' };
const FUTURES = { apiKey: 'bybitFuturesKey000003', secret: 'futures-secret' };

const requestLines = (venue: BybitTestServer, from = 0) =>
  venue.requests.slice(from).map((r) => `${r.method} ${r.path}`);

describe('CcxtGateway (bybit spot, unified account) against the Bybit protocol server', () => {
  let venue: BybitTestServer;
  let throttles: VenueThrottleRegistry;
  let marketCache: MarketCache;

  beforeAll(async () => {
    venue = await BybitTestServer.start({
      markets: {
        ...DEFAULT_BYBIT_MARKETS,
        // A thin book: 120 levels of 1 XRP, so one market order makes over 100 executions.
        XRPUSDT: {
          ...DEFAULT_BYBIT_MARKETS['SOLUSDT']!,
          base: 'XRP',
          price: '0.5',
          spot: { tickSize: '0.0001', basePrecision: '0.01', minOrderQty: '1', minOrderAmt: '1' },
          levelQty: '1',
          levelStep: '0.0001',
          levels: 120,
        },
      },
      accounts: [
        { ...ALICE, wallet: { USDT: '10000', BTC: '0.5' } },
        { ...BOB, wallet: { USDT: '100' }, canWithdraw: true },
      ],
    });
    throttles = new VenueThrottleRegistry();
    marketCache = new MarketCache();
  });
  afterAll(() => venue.close());

  function gateway(
    keys: { apiKey: string; secret: string },
    overrides: Partial<{ timeoutMs: number; retry: typeof NO_RETRY }> = {},
  ) {
    return new CcxtGateway({
      exchangeId: 'bybit',
      ...keys,
      marketType: 'spot',
      apiUrls: venue.origin,
      throttle: throttles,
      marketCache,
      retry: NO_RETRY,
      ...overrides,
    });
  }

  it('loads the spot instruments with one call shared by every account on the venue', async () => {
    const before = venue.requests.length;
    const markets = await gateway(ALICE).loadMarkets();
    await gateway(BOB).loadMarkets();
    expect(venue.requests.slice(before).map((r) => `${r.path}?${r.query}`)).toEqual([
      '/v5/market/time?',
      '/v5/market/instruments-info?category=spot',
    ]);
    expect(markets.find((market) => market.symbol === 'BTC/USDT')).toEqual({
      symbol: 'BTC/USDT',
      venueSymbol: 'BTC/USDT',
      base: 'BTC',
      quote: 'USDT',
      type: 'spot',
      amountStep: '0.000001',
      priceTick: '0.01',
      minAmount: '0.000048',
      minNotional: '1',
      active: true,
    });
  });

  it('reads the unified wallet as decimal strings, and the ticker, book and candles', async () => {
    const alice = gateway(ALICE);
    const balances = await alice.fetchBalances();
    expect(balances['USDT']).toEqual({ free: '10000', used: '0', total: '10000' });
    expect(balances['BTC']).toEqual({ free: '0.5', used: '0', total: '0.5' });
    expect(await alice.fetchTicker('BTC/USDT')).toMatchObject({ last: '65000', bid: '64999', ask: '65001' });
    const book = await alice.fetchOrderBook('BTC/USDT', 5);
    expect(book.asks[0]).toEqual(['65001', '0.5']);
    expect(book.bids).toHaveLength(5);
    const candles = await alice.fetchCandles('BTC/USDT', '1h', undefined, 3);
    expect(candles).toHaveLength(3);
    expect(candles[0]!.time).toBeLessThan(candles[2]!.time);
  });

  it('places a market buy sized in BTC, answers it as the venue shows it, with its fill and fee', async () => {
    const alice = gateway(ALICE);
    const order = await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.01',
      clientOrderId: 'mkt1',
    });
    expect(order).toMatchObject({
      clientOrderId: 'mkt1',
      side: 'buy',
      type: 'market',
      status: 'filled',
      amount: '0.01',
      filled: '0.01',
      average: '65001',
      fee: { cost: '0.00001', currency: 'BTC' },
    });
    expect(await alice.fetchOrderFills(order.venueOrderId, 'BTC/USDT')).toEqual([
      expect.objectContaining({
        venueOrderId: order.venueOrderId,
        side: 'buy',
        price: '65001',
        amount: '0.01',
        cost: '650.01',
        fee: '0.00001',
        feeCurrency: 'BTC',
        takerOrMaker: 'taker',
      }),
    ]);
    expect(venue.coin(ALICE.apiKey, 'USDT')).toEqual({ wallet: '9349.99', locked: '0' });
    expect(venue.coin(ALICE.apiKey, 'BTC').wallet).toBe('0.50999');
  });

  it('rests a limit order, finds it by client order id and cancels it', async () => {
    const alice = gateway(ALICE);
    const placed = await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.001',
      price: '60000',
      clientOrderId: 'lim1',
    });
    expect(placed).toMatchObject({ status: 'open', price: '60000', filled: '0', clientOrderId: 'lim1' });
    expect((await alice.fetchBalances())['USDT']).toMatchObject({ used: '60' });
    expect((await alice.fetchOpenOrders('BTC/USDT')).map((order) => order.clientOrderId)).toEqual(['lim1']);
    expect((await alice.fetchOpenOrders()).map((order) => order.symbol)).toEqual(['BTC/USDT']);
    expect((await alice.fetchOrderByClientId('lim1', 'BTC/USDT')).venueOrderId).toBe(placed.venueOrderId);

    const cancelled = await alice.cancelOrder(placed.venueOrderId, 'BTC/USDT');
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      clientOrderId: 'lim1',
      venueOrderId: placed.venueOrderId,
    });
    expect(await alice.fetchOpenOrders('BTC/USDT')).toEqual([]);
    expect((await alice.fetchBalances())['USDT']).toMatchObject({ used: '0' });
  });

  it('fills a resting limit order when the price moves through it, and finds it again after a Bybit restart', async () => {
    const alice = gateway(ALICE);
    const placed = await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.002',
      price: '66000',
      clientOrderId: 'lim2',
    });
    expect(placed.status).toBe('open');
    venue.setPrice('BTCUSDT', '66100');
    expect(await alice.fetchOrder(placed.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'filled',
      filled: '0.002',
      average: '66000',
    });
    expect(await alice.fetchOrderFills(placed.venueOrderId, 'BTC/USDT')).toEqual([
      expect.objectContaining({ price: '66000', fee: '0.132', feeCurrency: 'USDT', takerOrMaker: 'maker' }),
    ]);
    venue.setPrice('BTCUSDT', '65000');

    // After a restart Bybit's open-orders list no longer answers for ended orders: the history does.
    venue.forgetRecentOrders();
    const before = venue.requests.length;
    expect(await alice.fetchOrder(placed.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'filled' });
    expect(await alice.fetchOrderByClientId('lim1', 'BTC/USDT')).toMatchObject({ status: 'cancelled' });
    expect(requestLines(venue, before)).toEqual([
      'GET /v5/order/realtime',
      'GET /v5/order/history',
      'GET /v5/order/realtime',
      'GET /v5/order/history',
    ]);
  });

  it('answers a reused client order id with the order already placed', async () => {
    const alice = gateway(ALICE);
    const request = {
      symbol: 'ETH/USDT',
      side: 'buy' as const,
      type: 'limit' as const,
      amount: '0.01',
      price: '3000',
      clientOrderId: 'dup1',
    };
    const first = await alice.createOrder(request);
    const second = await alice.createOrder(request);
    expect(second.venueOrderId).toBe(first.venueOrderId);
    expect(venue.requests.filter((r) => r.path === '/v5/order/create').at(-1)?.retCode).toBe(170141);
    expect(await alice.fetchOpenOrders('ETH/USDT')).toHaveLength(1);
    await alice.cancelOrder(first.venueOrderId, 'ETH/USDT');
  });

  it("maps Bybit's refusals to domain errors", async () => {
    const bob = gateway(BOB);
    const refusal = (request: { amount: string; price?: string; type?: 'limit' | 'market' }) =>
      bob
        .createOrder({
          symbol: 'BTC/USDT',
          side: 'buy',
          type: request.type ?? 'limit',
          amount: request.amount,
          ...(request.price ? { price: request.price } : {}),
          clientOrderId: `refused${venue.requests.length}`,
        })
        .catch((e: unknown) => e);
    expect(await refusal({ type: 'market', amount: '0.01' })).toBeInstanceOf(InsufficientFundsError);
    expect(await refusal({ amount: '0.00001', price: '60000' })).toBeInstanceOf(InvalidOrderError);
    expect(await refusal({ amount: '0.0001', price: '5000' })).toBeInstanceOf(InvalidOrderError);
    const codes = venue.requests.filter((r) => r.path === '/v5/order/create').slice(-3);
    // Insufficient balance, quantity under the minimum, value under the minimum.
    expect(codes.map((r) => r.retCode)).toEqual([170131, 170136, 170140]);
    await expect(bob.fetchOrderByClientId('never-placed', 'BTC/USDT')).rejects.toBeInstanceOf(
      OrderNotFoundError,
    );
    await expect(bob.fetchTicker('NOPE/USDT')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('maps a bad signature and an unknown key to ExchangeAuthenticationError', async () => {
    const before = venue.requests.length;
    await expect(
      gateway({ apiKey: ALICE.apiKey, secret: 'not-the-secret' }).fetchBalances(),
    ).rejects.toBeInstanceOf(ExchangeAuthenticationError);
    await expect(
      gateway({ apiKey: 'unknownBybitKey00009', secret: 'x' }).fetchBalances(),
    ).rejects.toBeInstanceOf(ExchangeAuthenticationError);
    const codes = new Set(venue.requests.slice(before).map((r) => r.retCode));
    expect(codes).toEqual(new Set([10004, 10003]));
  });

  it('reports whether the key can withdraw (bybit query-api)', async () => {
    expect(await gateway(ALICE).checkApiKeyPermissions()).toEqual({
      canWithdraw: false,
      canTrade: true,
      source: 'bybit query-api',
    });
    expect((await gateway(BOB).checkApiKeyPermissions()).canWithdraw).toBe(true);
  });

  it('turns a timeout after Bybit accepted an order into UnknownOutcomeError, settled by client id', async () => {
    const alice = gateway(ALICE, { timeoutMs: 300 });
    await alice.fetchBalances(); // ccxt's account-mode calls first, answered in time
    venue.delayNext({
      count: 1,
      ms: 800,
      match: (method, path) => method === 'POST' && path === '/v5/order/create',
    });
    await expect(
      alice.createOrder({
        symbol: 'SOL/USDT',
        side: 'buy',
        type: 'market',
        amount: '1',
        clientOrderId: 'slow1',
      }),
    ).rejects.toBeInstanceOf(UnknownOutcomeError);
    expect(await alice.fetchOrderByClientId('slow1', 'SOL/USDT')).toMatchObject({
      status: 'filled',
      filled: '1',
      clientOrderId: 'slow1',
    });
  });

  it('reads every page of an order with more executions than one page holds', async () => {
    const alice = gateway(ALICE);
    const order = await alice.createOrder({
      symbol: 'XRP/USDT',
      side: 'buy',
      type: 'market',
      amount: '110',
      clientOrderId: 'thin1',
    });
    expect(order).toMatchObject({ status: 'filled', filled: '110' });
    const before = venue.requests.length;
    const fills = await alice.fetchOrderFills(order.venueOrderId, 'XRP/USDT');
    expect(fills).toHaveLength(110);
    expect(new Set(fills.map((f) => f.venueTradeId)).size).toBe(110);
    expect(requestLines(venue, before)).toEqual(Array(3).fill('GET /v5/execution/list'));
  });

  it('maps an HTTP 429 to RateLimitedError and pauses the whole venue until the limit resets', async () => {
    const alice = gateway(ALICE);
    venue.failNext({ count: 1, kind: 'http429', resetAfterMs: 1_000 });
    const error = await alice.fetchTicker('BTC/USDT').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(800);

    // Another account on the same venue waits for the pause instead of hitting the venue.
    const limitedAt = Date.now();
    await gateway(BOB).fetchTicker('ETH/USDT');
    const next = venue.requests[venue.requests.length - 1]!;
    expect(next.path).toBe('/v5/market/tickers');
    expect(next.receivedAt - limitedAt).toBeGreaterThanOrEqual(800);
  });

  it('takes retCode 10006 in a 200 answer as a rate limit too, and retries after the reset time', async () => {
    const alice = gateway(ALICE, { retry: { retries: 2, baseMs: 50, maxMs: 2_000 } });
    venue.failNext({ count: 1, kind: 'retCode10006', resetAfterMs: 300 });
    const started = Date.now();
    expect((await alice.fetchTicker('BTC/USDT')).last).toBe('65000');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const tickerCalls = venue.requests.filter((r) => r.path === '/v5/market/tickers').slice(-2);
    expect(tickerCalls.map((r) => [r.status, r.retCode])).toEqual([
      [200, 10006],
      [200, 0],
    ]);
  });
});

describe('CcxtGateway (bybit USDT perpetuals, unified account) against the Bybit protocol server', () => {
  let venue: BybitTestServer;
  let gateway: CcxtGateway;

  beforeAll(async () => {
    venue = await BybitTestServer.start({ accounts: [{ ...FUTURES, wallet: { USDT: '10000' } }] });
    gateway = new CcxtGateway({
      exchangeId: 'bybit',
      ...FUTURES,
      marketType: 'future',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
      marketCache: new MarketCache(),
      retry: NO_RETRY,
    });
  });
  afterAll(() => venue.close());

  it('loads only the linear perpetuals, under Kairos symbols', async () => {
    const markets = await gateway.loadMarkets();
    expect(venue.requests.map((r) => `${r.path}?${r.query}`).sort()).toEqual([
      '/v5/market/instruments-info?category=linear&limit=1000',
      '/v5/market/instruments-info?category=linear&limit=1000&status=PreLaunch',
      '/v5/market/time?',
    ]);
    expect(markets.find((market) => market.symbol === 'BTC/USDT')).toMatchObject({
      venueSymbol: 'BTC/USDT:USDT',
      type: 'swap',
      amountStep: '0.001',
      priceTick: '0.1',
      minAmount: '0.001',
      minNotional: '5',
    });
  });

  it('sets leverage (twice: Bybit refuses an unchanged one), opens a long, and closes it with a reduce-only take-profit', async () => {
    await gateway.setLeverage('BTC/USDT', 5);
    await gateway.setLeverage('BTC/USDT', 5);
    expect(
      venue.requests.filter((r) => r.path === '/v5/position/set-leverage').map((r) => r.retCode),
    ).toEqual([0, 110043]);
    expect((await gateway.fetchBalances())['USDT']).toMatchObject({ free: '10000', total: '10000' });

    const open = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'fut-open',
    });
    expect(open).toMatchObject({
      status: 'filled',
      filled: '0.1',
      average: '65001',
      clientOrderId: 'fut-open',
      fee: { cost: '3.575055', currency: 'USDT' },
    });
    expect(await gateway.fetchPositions()).toEqual([
      expect.objectContaining({
        symbol: 'BTC/USDT',
        side: 'long',
        amount: '0.1',
        entryPrice: '65001',
        leverage: '5',
      }),
    ]);
    // Margin held by the position: 6500 / 5.
    expect((await gateway.fetchBalances())['USDT']).toMatchObject({ used: '1300' });

    // A reduce-only order larger than the position is cut to it, as Bybit does.
    const cut = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.2',
      price: '67000',
      reduceOnly: true,
      clientOrderId: 'fut-cut',
    });
    expect(cut).toMatchObject({ status: 'open', amount: '0.1', reduceOnly: true });
    expect((await gateway.fetchOpenOrders()).map((o) => o.clientOrderId)).toEqual(['fut-cut']);
    await gateway.cancelOrder(cut.venueOrderId, 'BTC/USDT');

    const takeProfit = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.1',
      price: '66000',
      reduceOnly: true,
      clientOrderId: 'fut-tp1',
    });
    expect(takeProfit).toMatchObject({ status: 'open', reduceOnly: true });
    venue.setPrice('BTCUSDT', '66000');
    expect(await gateway.fetchOrderByClientId('fut-tp1', 'BTC/USDT')).toMatchObject({ status: 'filled' });
    expect(await gateway.fetchPositions()).toEqual([]);
    expect(await gateway.fetchOrderFills(takeProfit.venueOrderId, 'BTC/USDT')).toEqual([
      expect.objectContaining({
        side: 'sell',
        price: '66000',
        amount: '0.1',
        fee: '1.32',
        takerOrMaker: 'maker',
      }),
    ]);
    // +99.9 realised; fees 0.055 % taker on 6500.1 and 0.02 % maker on 6600.
    expect(venue.coin(FUTURES.apiKey, 'USDT').wallet).toBe('10095.004945');
    await expect(gateway.cancelOrder(takeProfit.venueOrderId, 'BTC/USDT')).rejects.toBeInstanceOf(
      OrderNotFoundError,
    );
    expect(new Set(requestLines(venue))).toEqual(
      new Set([
        'GET /v5/market/instruments-info',
        'GET /v5/market/time',
        'POST /v5/position/set-leverage',
        'GET /v5/user/query-api',
        'GET /v5/account/info',
        'GET /v5/account/wallet-balance',
        'POST /v5/order/create',
        'GET /v5/order/realtime',
        'GET /v5/position/list',
        'POST /v5/order/cancel',
        'GET /v5/execution/list',
      ]),
    );
  });

  it('refuses reduce-only orders that would not reduce, orders under the minimum value and orders without margin', async () => {
    const refusal = (request: {
      side: 'buy' | 'sell';
      amount: string;
      price?: string;
      reduceOnly?: boolean;
    }) =>
      gateway
        .createOrder({
          symbol: 'BTC/USDT',
          type: request.price ? 'limit' : 'market',
          ...request,
          clientOrderId: `fut-refused-${venue.requests.length}`,
        })
        .catch((e: unknown) => e);
    expect(await refusal({ side: 'sell', amount: '0.1', reduceOnly: true })).toBeInstanceOf(
      InvalidOrderError,
    );
    expect(await refusal({ side: 'buy', amount: '0.001', price: '1000' })).toBeInstanceOf(InvalidOrderError);
    expect(await refusal({ side: 'buy', amount: '10' })).toBeInstanceOf(InsufficientFundsError);
    const codes = venue.requests.filter((r) => r.path === '/v5/order/create').slice(-3);
    expect(codes.map((r) => r.retCode)).toEqual([110017, 110094, 110007]);
  });
});

const TRADER = { apiKey: 'bybitReconcileKey0001', secret: 'bybit-reconcile-secret' };
const WITHDRAWER = { apiKey: 'bybitWithdrawKey00001', secret: 'bybit-withdraw-secret' };

/**
 * The engine on a Bybit unified account (USDT perpetual) through ccxt and the Bybit-protocol server: take
 * profits fill and get cancelled at the venue, Bybit restarts and forgets its recent ended orders, and one
 * reconciliation pass brings our rows in line — the fills stored, the venue's position equal to the trade's.
 */
describe("a Bybit account's reconciliation pass", () => {
  let venue: BybitTestServer;
  let t: TradesApp;
  let alice: Session;
  let accountId: string;
  let gateway: ExchangeGateway;

  beforeAll(async () => {
    venue = await BybitTestServer.start({
      accounts: [
        { ...TRADER, wallet: { USDT: '10000' } },
        { ...WITHDRAWER, wallet: { USDT: '10000' }, canWithdraw: true },
      ],
    });
    t = await startTradesApp({ venueUrls: venue.venueUrls() });
    alice = await registerUser(t.app);
    const account = await asUser(t.app, alice).post('/api/trading-accounts', {
      nickname: 'Bybit',
      exchange: 'bybit',
      marketType: 'future',
      apiKey: TRADER.apiKey,
      apiSecret: TRADER.secret,
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    accountId = account.body.results.id;
    const row = (await t.app.services.repos.accounts.findById(accountId))!;
    gateway = await t.app.services.venues.gateways.forAccount(row);
  });
  afterAll(async () => {
    await t?.close();
    await venue?.close();
  });

  function openRequest(clientOrderId: string): OpenRequest {
    return {
      userId: String(alice.user.id),
      botId: null,
      accountId,
      strategyId: null,
      alertId: null,
      symbol: 'BTC/USDT',
      side: 'long',
      clientOrderId,
      quantity: '0.02',
      plan: {
        takeProfits: [
          { role: 'tp1', percent: '2', sizePercent: '50' },
          { role: 'tp2', percent: '4', sizePercent: '50' },
        ],
        stopLossPercent: '1',
        breakEvenAfterTp1: true,
      },
    };
  }

  async function ordersOf(tradeId: string) {
    const { rows } = await t.db.pool.query(
      `SELECT client_order_id, role, status, amount, filled FROM orders WHERE trade_id = $1 ORDER BY created_at, role`,
      [tradeId],
    );
    return rows as {
      client_order_id: string;
      role: string;
      status: string;
      amount: string;
      filled: string;
    }[];
  }

  async function filledByRole(tradeId: string) {
    const { rows } = await t.db.pool.query(
      `SELECT o.role, sum(f.amount)::text AS amount FROM fills f JOIN orders o ON o.id = f.order_id
       WHERE f.trade_id = $1 AND NOT f.inferred GROUP BY o.role ORDER BY o.role`,
      [tradeId],
    );
    return Object.fromEntries(rows.map((r: { role: string; amount: string }) => [r.role, Number(r.amount)]));
  }

  it('refuses to connect a Bybit key that can withdraw', async () => {
    const refused = await asUser(t.app, alice).post('/api/trading-accounts', {
      nickname: 'Bybit withdraw',
      exchange: 'bybit',
      marketType: 'future',
      apiKey: WITHDRAWER.apiKey,
      apiSecret: WITHDRAWER.secret,
    });
    expect([refused.status, refused.body.error]).toEqual([422, 'KEY_CAN_WITHDRAW']);
  });

  it('brings a take-profit filled and one cancelled at the venue in line, after Bybit forgot both', async () => {
    const { supervisor, reconciler } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(gateway, openRequest('bybitrecon1entry'));
    expect(opened).toMatchObject({ status: 'open', quantity: '0.02' });
    expect(venue.positionSize(TRADER.apiKey, 'BTCUSDT')).toBe('0.02');
    const ladder = (await ordersOf(opened.id)).filter((o) => o.role.startsWith('tp'));
    expect(ladder.map((o) => [o.role, o.status])).toEqual([
      ['tp1', 'open'],
      ['tp2', 'open'],
    ]);

    // At the venue: TP1 fills, the user cancels TP2 on Bybit's website, then Bybit restarts and its
    // open-orders list no longer answers for ended orders (only the order history does).
    venue.setPrice('BTCUSDT', '66800');
    const tp2 = ladder.find((o) => o.role === 'tp2')!;
    venue.cancelAtVenue(tp2.client_order_id);
    venue.forgetRecentOrders();
    const before = venue.requests.length;

    await expect(reconciler.reconcileAccount({ id: accountId }, { sweep: true })).resolves.toBeDefined();

    const orders = await ordersOf(opened.id);
    expect(orders.find((o) => o.role === 'tp1')).toMatchObject({ status: 'filled', filled: '0.01' });
    expect(orders.find((o) => o.client_order_id === tp2.client_order_id)?.status).toBe('cancelled');
    expect(await filledByRole(opened.id)).toMatchObject({ entry: 0.02, tp1: 0.01 });
    const { trade } = (await asUser(t.app, alice).get(`/api/trades/${opened.id}`)).body.results;
    expect(trade).toMatchObject({ status: 'open', openQuantity: '0.01', stopMovedToBreakEven: true });
    // The lifecycle invariant: the venue's position is the trade's open quantity.
    expect(venue.positionSize(TRADER.apiKey, 'BTCUSDT')).toBe(trade.openQuantity);
    // The ended orders were found in Bybit's order history.
    const asked = venue.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.retCode}`);
    expect(asked).toContain('GET /v5/order/history 0');
    expect(asked.every((line) => line.endsWith(' 0'))).toBe(true);
  });
});
