import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BinanceTestServer } from '../fakes/binance-server';

const ALICE = { apiKey: 'aliceKey0000000000000001', secret: 'alice-secret' };
const BOB = { apiKey: 'bobKey000000000000000002', secret: 'bob-secret' };
const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };

describe('CcxtGateway (binance spot) against the Binance protocol server', () => {
  let venue: BinanceTestServer;
  let throttles: VenueThrottleRegistry;
  let marketCache: MarketCache;

  beforeAll(async () => {
    venue = await BinanceTestServer.start({
      accounts: [
        { ...ALICE, balances: { USDT: '10000', BTC: '0.5' } },
        { ...BOB, balances: { USDT: '100' }, canWithdraw: true },
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
      exchangeId: 'binance',
      ...keys,
      marketType: 'spot',
      apiUrls: venue.origin,
      throttle: throttles,
      marketCache,
      retry: NO_RETRY,
      ...overrides,
    });
  }

  it('loads spot markets with one exchangeInfo call shared by every account on the venue', async () => {
    const before = venue.requests.length;
    const markets = await gateway(ALICE).loadMarkets();
    await gateway(BOB).loadMarkets();
    const calls = venue.requests.slice(before).map((request) => request.path);
    expect(calls).toEqual(['/api/v3/exchangeInfo', '/api/v3/time']);
    const btc = markets.find((market) => market.symbol === 'BTC/USDT');
    expect(btc).toEqual({
      symbol: 'BTC/USDT',
      venueSymbol: 'BTC/USDT',
      base: 'BTC',
      quote: 'USDT',
      type: 'spot',
      amountStep: '0.00001',
      priceTick: '0.01',
      minAmount: '0.00001',
      minNotional: '5',
      active: true,
    });
  });

  it('reads balances as decimal strings', async () => {
    const balances = await gateway(ALICE).fetchBalances();
    expect(balances['USDT']).toEqual({ free: '10000', used: '0', total: '10000' });
    expect(balances['BTC']).toEqual({ free: '0.5', used: '0', total: '0.5' });
  });

  it('places a market buy that walks the book, with fills and fees', async () => {
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
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      status: 'filled',
      amount: '0.01',
      filled: '0.01',
      average: '65001',
      fee: { cost: '0.00001', currency: 'BTC' },
    });
    const fills = await alice.fetchMyTrades('BTC/USDT');
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({
      venueOrderId: order.venueOrderId,
      side: 'buy',
      price: '65001',
      amount: '0.01',
      cost: '650.01',
      fee: '0.00001',
      feeCurrency: 'BTC',
      takerOrMaker: 'taker',
    });
    expect(venue.balance(ALICE.apiKey, 'USDT')).toEqual({ free: '9349.99', locked: '0' });
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

    const open = await alice.fetchOpenOrders('BTC/USDT');
    expect(open.map((order) => order.clientOrderId)).toEqual(['lim1']);
    expect((await alice.fetchOpenOrders()).map((order) => order.symbol)).toEqual(['BTC/USDT']);
    const byClientId = await alice.fetchOrderByClientId('lim1', 'BTC/USDT');
    expect(byClientId.venueOrderId).toBe(placed.venueOrderId);

    const cancelled = await alice.cancelOrder(placed.venueOrderId, 'BTC/USDT');
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      clientOrderId: 'lim1',
      venueOrderId: placed.venueOrderId,
    });
    expect(await alice.fetchOpenOrders('BTC/USDT')).toEqual([]);
    expect((await alice.fetchBalances())['USDT']).toMatchObject({ used: '0' });
  });

  it('fills a resting limit order when the price moves through it', async () => {
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
    const filled = await alice.fetchOrder(placed.venueOrderId, 'BTC/USDT');
    expect(filled).toMatchObject({ status: 'filled', filled: '0.002', average: '66000' });
    venue.setPrice('BTCUSDT', '65000');
  });

  it('answers a reused client order id with the order already placed', async () => {
    const alice = gateway(ALICE);
    const first = await alice.createOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.01',
      price: '3000',
      clientOrderId: 'dup1',
    });
    const second = await alice.createOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.01',
      price: '3000',
      clientOrderId: 'dup1',
    });
    expect(second.venueOrderId).toBe(first.venueOrderId);
    expect(await alice.fetchOpenOrders('ETH/USDT')).toHaveLength(1);
    await alice.cancelOrder(first.venueOrderId, 'ETH/USDT');
  });

  it('maps venue refusals to domain errors', async () => {
    const bob = gateway(BOB);
    await expect(
      bob.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'market',
        amount: '0.01',
        clientOrderId: 'poor1',
      }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    await expect(
      bob.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        amount: '0.00001',
        price: '60000',
        clientOrderId: 'tiny1',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(bob.fetchOrderByClientId('never-placed', 'BTC/USDT')).rejects.toBeInstanceOf(
      OrderNotFoundError,
    );
    await expect(bob.fetchTicker('NOPE/USDT')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('maps a bad signature and an unknown key to ExchangeAuthenticationError', async () => {
    const wrongSecret = gateway({ apiKey: ALICE.apiKey, secret: 'not-the-secret' });
    await expect(wrongSecret.fetchBalances()).rejects.toBeInstanceOf(ExchangeAuthenticationError);
    const unknownKey = gateway({ apiKey: 'unknownKey00000000000009', secret: 'x' });
    await expect(unknownKey.fetchBalances()).rejects.toBeInstanceOf(ExchangeAuthenticationError);
    const statuses = venue.requests.filter((r) => r.path === '/api/v3/account').slice(-2);
    expect(statuses.map((r) => r.status)).toEqual([400, 401]);
  });

  it('does not ask a sandbox without the endpoint (Binance testnet has no sapi)', async () => {
    const sandbox = new CcxtGateway({
      exchangeId: 'binance',
      ...ALICE,
      sandbox: true,
      marketType: 'spot',
      throttle: throttles,
      retry: NO_RETRY,
    });
    expect(sandbox.venueKey).toBe('binance|sandbox|https://testnet.binance.vision');
    expect(await sandbox.checkApiKeyPermissions()).toEqual({
      canWithdraw: null,
      canTrade: null,
      source: 'binance apiRestrictions unavailable here',
    });
  });

  it('reports whether the key can withdraw (binance apiRestrictions)', async () => {
    expect(await gateway(ALICE).checkApiKeyPermissions()).toEqual({
      canWithdraw: false,
      canTrade: true,
      source: 'binance apiRestrictions',
    });
    expect((await gateway(BOB).checkApiKeyPermissions()).canWithdraw).toBe(true);
  });

  it('turns a timeout after the venue accepted an order into UnknownOutcomeError, settled by client id', async () => {
    const alice = gateway(ALICE, { timeoutMs: 300 });
    venue.delayNext({
      count: 1,
      ms: 800,
      match: (method, path) => method === 'POST' && path === '/api/v3/order',
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
    const settled = await alice.fetchOrderByClientId('slow1', 'SOL/USDT');
    expect(settled).toMatchObject({ status: 'filled', filled: '1', clientOrderId: 'slow1' });
  });

  it('maps a 429 to RateLimitedError with the Retry-After, and pauses the whole venue', async () => {
    const alice = gateway(ALICE);
    venue.failNext({ count: 1, status: 429, retryAfterSeconds: 1 });
    const error = await alice.fetchTicker('BTC/USDT').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(800);

    // Another account on the same venue waits for the pause instead of hitting the venue.
    const limitedAt = Date.now();
    await gateway(BOB).fetchTicker('ETH/USDT');
    const next = venue.requests[venue.requests.length - 1]!;
    expect(next.path).toBe('/api/v3/ticker/24hr');
    expect(next.receivedAt - limitedAt).toBeGreaterThanOrEqual(800);
  });

  it('retries a rate-limited read with backoff honouring Retry-After', async () => {
    const alice = gateway(ALICE, { retry: { retries: 3, baseMs: 50, maxMs: 2_000 } });
    venue.failNext({ count: 2, status: 429, retryAfterSeconds: 0.3 });
    const started = Date.now();
    const ticker = await alice.fetchTicker('BTC/USDT');
    expect(ticker.last).toBe('65000');
    // Two 429s, each pausing the venue 300 ms before the next attempt.
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    const tickerCalls = venue.requests.filter((r) => r.path === '/api/v3/ticker/24hr').slice(-3);
    expect(tickerCalls.map((r) => r.status)).toEqual([429, 429, 200]);
  });
});
