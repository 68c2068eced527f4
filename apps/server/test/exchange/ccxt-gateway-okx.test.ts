import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deterministicId } from '@kairos/core';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import {
  ExchangeAuthenticationError,
  InsufficientFundsError,
  InvalidOrderError,
  OrderNotFoundError,
  RateLimitedError,
  UnknownOutcomeError,
  UnknownSymbolError,
  UnsupportedOperationError,
} from '../../src/exchange/errors';
import type { AccountMarketType } from '../../src/exchange/gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { OkxTestServer, type OkxRecordedRequest } from '../fakes/okx-server';

type Keys = { apiKey: string; secret: string; passphrase: string };
const ALICE: Keys = { apiKey: 'okxAlice0000000001', secret: 'alice-secret', passphrase: 'Alice-pass1' };
const BOB: Keys = { apiKey: 'okxBob000000000002', secret: 'bob-secret', passphrase: 'Bob-pass2' };
const MAKER: Keys = { apiKey: 'okxMaker0000000003', secret: 'maker-secret', passphrase: 'Maker-pass3' };
const HEDGER: Keys = { apiKey: 'okxHedger000000004', secret: 'hedger-secret', passphrase: 'Hedger-pass4' };
const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };

/** Kairos' own client ids: 23 letters and digits, `k` first. */
const kid = (...parts: string[]) => deterministicId(['okx-gateway-test', ...parts]);

describe('CcxtGateway (okx, spot and USDT swaps) against the OKX protocol server', () => {
  let venue: OkxTestServer;
  let throttles: VenueThrottleRegistry;
  let marketCache: MarketCache;

  beforeAll(async () => {
    venue = await OkxTestServer.start({
      accounts: [
        { ...ALICE, balances: { USDT: '10000', BTC: '0.5' } },
        { ...BOB, balances: { USDT: '50' }, canWithdraw: true },
        { ...MAKER, balances: { BTC: '1' } },
        { ...HEDGER, balances: { USDT: '1000' }, posMode: 'long_short_mode' },
      ],
    });
    throttles = new VenueThrottleRegistry();
    marketCache = new MarketCache();
  });
  afterAll(() => venue.close());

  function gateway(
    keys: Keys,
    marketType: AccountMarketType,
    overrides: Partial<{ timeoutMs: number; retry: typeof NO_RETRY }> = {},
  ) {
    return new CcxtGateway({
      exchangeId: 'okx',
      apiKey: keys.apiKey,
      secret: keys.secret,
      password: keys.passphrase,
      marketType,
      apiUrls: venue.origin,
      throttle: throttles,
      marketCache,
      retry: NO_RETRY,
      ...overrides,
    });
  }

  const since = () => venue.requests.length;
  const callsSince = (from: number) => venue.requests.slice(from);
  const lastCall = (method: string, path: string): OkxRecordedRequest =>
    venue.requests.filter((r) => r.method === method && r.path === path).at(-1)!;
  /** The order entries of the last order placement ccxt sent (it uses batch-orders, one entry). */
  const placed = () => JSON.parse(lastCall('POST', '/api/v5/trade/batch-orders').body)[0];

  it('loads spot markets and swaps with their contract size in base units, one instruments call each', async () => {
    const from = since();
    const spot = await gateway(ALICE, 'spot').loadMarkets();
    await gateway(BOB, 'spot').loadMarkets();
    const swaps = await gateway(ALICE, 'future').loadMarkets();
    expect(callsSince(from).map((r) => `${r.path}?${r.query}`)).toEqual([
      '/api/v5/public/time?',
      '/api/v5/public/instruments?instType=SPOT',
      '/api/v5/public/time?',
      '/api/v5/public/instruments?instType=SWAP',
    ]);
    expect(spot.find((m) => m.symbol === 'BTC/USDT')).toEqual({
      symbol: 'BTC/USDT',
      venueSymbol: 'BTC/USDT',
      base: 'BTC',
      quote: 'USDT',
      type: 'spot',
      amountStep: '0.00000001',
      priceTick: '0.1',
      minAmount: '0.00001',
      minNotional: null,
      active: true,
    });
    // BTC-USDT-SWAP: 0.01 BTC a contract, lots of 0.01 contract.
    expect(swaps.find((m) => m.symbol === 'BTC/USDT')).toMatchObject({
      venueSymbol: 'BTC/USDT:USDT',
      type: 'swap',
      amountStep: '0.0001',
      minAmount: '0.0001',
      priceTick: '0.1',
    });
    // ETH-USDT-SWAP: 0.1 ETH a contract.
    expect(swaps.find((m) => m.symbol === 'ETH/USDT')).toMatchObject({
      amountStep: '0.001',
      minAmount: '0.001',
    });
  });

  it('reads the trading account (one for spot and swaps) with the passphrase, and whether the key can withdraw', async () => {
    expect((await gateway(ALICE, 'spot').fetchBalances())['USDT']).toEqual({
      free: '10000',
      used: '0',
      total: '10000',
    });
    expect((await gateway(ALICE, 'future').fetchBalances())['BTC']).toEqual({
      free: '0.5',
      used: '0',
      total: '0.5',
    });
    expect(lastCall('GET', '/api/v5/account/balance')).toMatchObject({ status: 200, apiKey: ALICE.apiKey });
    expect(await gateway(ALICE, 'spot').checkApiKeyPermissions()).toEqual({
      canWithdraw: false,
      canTrade: true,
      source: 'okx account config',
    });
    expect((await gateway(BOB, 'spot').checkApiKeyPermissions()).canWithdraw).toBe(true);
  });

  it('maps a wrong passphrase or secret to ExchangeAuthenticationError', async () => {
    await expect(gateway({ ...ALICE, passphrase: 'wrong' }, 'spot').fetchBalances()).rejects.toBeInstanceOf(
      ExchangeAuthenticationError,
    );
    await expect(gateway({ ...ALICE, secret: 'wrong' }, 'spot').fetchBalances()).rejects.toBeInstanceOf(
      ExchangeAuthenticationError,
    );
    const refused = venue.requests.filter((r) => r.path === '/api/v5/account/balance').slice(-2);
    expect(refused.map((r) => [r.status, r.code])).toEqual([
      [401, '50105'],
      [401, '50113'],
    ]);
  });

  it('reads prices, the book and candles of a swap in base units', async () => {
    const swap = gateway(ALICE, 'future');
    expect(await swap.fetchTicker('BTC/USDT')).toMatchObject({ last: '65000', bid: '64999', ask: '65001' });
    const book = await swap.fetchOrderBook('BTC/USDT', 2);
    // The venue answers in contracts (50 of 0.01 BTC).
    expect(book.asks).toEqual([
      ['65001', '0.5'],
      ['65002', '0.5'],
    ]);
    expect(lastCall('GET', '/api/v5/market/books').query).toBe('instId=BTC-USDT-SWAP&sz=2');
    const candles = await swap.fetchCandles('BTC/USDT', '1h', undefined, 3);
    expect(candles).toHaveLength(3);
    expect(candles[0]!.time).toBeLessThan(candles[2]!.time);
    expect(lastCall('GET', '/api/v5/market/candles').query).toBe('instId=BTC-USDT-SWAP&bar=1H&limit=3');
  });

  it('places a spot market buy under a Kairos client id and reads its fills by order', async () => {
    const alice = gateway(ALICE, 'spot');
    const clientOrderId = kid('spot', 'market');
    expect(clientOrderId).toMatch(/^k[A-Za-z0-9]{22}$/);
    const order = await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.01',
      clientOrderId,
    });
    expect(placed()).toEqual({
      instId: 'BTC-USDT',
      side: 'buy',
      ordType: 'market',
      sz: '0.01',
      tdMode: 'cash',
      tgtCcy: 'base_ccy',
      clOrdId: clientOrderId,
    });
    // OKX acknowledges with the ids only: the gateway reads the order back.
    expect(order).toMatchObject({
      clientOrderId,
      status: 'filled',
      amount: '0.01',
      filled: '0.01',
      average: '65001',
      fee: { cost: '0.00001', currency: 'BTC' },
    });
    const fills = await alice.fetchOrderFills(order.venueOrderId, 'BTC/USDT', order.timestamp - 60_000);
    expect(fills).toEqual([
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
    const asked = lastCall('GET', '/api/v5/trade/fills-history');
    expect(new URLSearchParams(asked.query).get('ordId')).toBe(order.venueOrderId);
    expect(venue.cashBalance(ALICE.apiKey, 'USDT')).toBe('9349.99');
  });

  it('rests a limit order, finds it by venue id and by client id, lists it open and cancels it', async () => {
    const alice = gateway(ALICE, 'spot');
    const clientOrderId = kid('spot', 'limit');
    const resting = await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.001',
      price: '60000',
      clientOrderId,
    });
    expect(resting).toMatchObject({ status: 'open', price: '60000', filled: '0', clientOrderId });
    expect((await alice.fetchBalances())['USDT']).toMatchObject({ used: '60' });
    expect((await alice.fetchOrder(resting.venueOrderId, 'BTC/USDT')).clientOrderId).toBe(clientOrderId);
    const byClientId = await alice.fetchOrderByClientId(clientOrderId, 'BTC/USDT');
    expect(byClientId.venueOrderId).toBe(resting.venueOrderId);
    expect(lastCall('GET', '/api/v5/trade/order').query).toBe(`instId=BTC-USDT&clOrdId=${clientOrderId}`);
    expect((await alice.fetchOpenOrders()).map((o) => [o.symbol, o.clientOrderId])).toEqual([
      ['BTC/USDT', clientOrderId],
    ]);

    const cancelled = await alice.cancelOrder(resting.venueOrderId, 'BTC/USDT');
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      clientOrderId,
      venueOrderId: resting.venueOrderId,
    });
    expect(await alice.fetchOpenOrders('BTC/USDT')).toEqual([]);
    expect((await alice.fetchBalances())['USDT']).toMatchObject({ used: '0' });
    // A second cancel: OKX's 51400, an order the venue no longer has live.
    await expect(alice.cancelOrder(resting.venueOrderId, 'BTC/USDT')).rejects.toBeInstanceOf(
      OrderNotFoundError,
    );
  });

  it('answers a reused client id of a live order with the order already placed', async () => {
    const alice = gateway(ALICE, 'spot');
    const clientOrderId = kid('spot', 'duplicate');
    const request = {
      symbol: 'ETH/USDT',
      side: 'buy' as const,
      type: 'limit' as const,
      amount: '0.01',
      price: '3000',
      clientOrderId,
    };
    const first = await alice.createOrder(request);
    const second = await alice.createOrder(request);
    expect(lastCall('POST', '/api/v5/trade/batch-orders').sCodes).toEqual(['51016']);
    expect(second.venueOrderId).toBe(first.venueOrderId);
    expect(await alice.fetchOpenOrders('ETH/USDT')).toHaveLength(1);
    await alice.cancelOrder(first.venueOrderId, 'ETH/USDT');
  });

  it('maps refusals: funds (51008), minimum (51020), a client id OKX does not take, unknown orders and symbols', async () => {
    const bob = gateway(BOB, 'spot');
    const order = (extra: Partial<Parameters<CcxtGateway['createOrder']>[0]>) =>
      bob.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        amount: '0.001',
        price: '60000',
        clientOrderId: kid('bob', String(extra.clientOrderId ?? extra.amount ?? '')),
        ...extra,
      });
    await expect(order({ type: 'market', amount: '0.01', price: undefined })).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );
    expect(lastCall('POST', '/api/v5/trade/batch-orders').sCodes).toEqual(['51008']);
    await expect(order({ amount: '0.000005' })).rejects.toBeInstanceOf(InvalidOrderError);
    expect(lastCall('POST', '/api/v5/trade/batch-orders').sCodes).toEqual(['51020']);
    // Letters and digits only, 32 at most (OKX's clOrdId): others are refused by the gateway, unsent.
    const placements = venue.requests.filter((r) => r.path === '/api/v5/trade/batch-orders').length;
    await expect(order({ clientOrderId: 'with-dashes-1' })).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(order({ clientOrderId: 'k'.repeat(33) })).rejects.toBeInstanceOf(InvalidOrderError);
    expect(venue.requests.filter((r) => r.path === '/api/v5/trade/batch-orders')).toHaveLength(placements);
    await expect(bob.fetchOrderByClientId(kid('never', 'placed'), 'BTC/USDT')).rejects.toBeInstanceOf(
      OrderNotFoundError,
    );
    expect(lastCall('GET', '/api/v5/trade/order')).toMatchObject({ status: 200, code: '51603' });
    await expect(bob.fetchOrder('123456789', 'BTC/USDT')).rejects.toBeInstanceOf(OrderNotFoundError);
    await expect(bob.fetchTicker('NOPE/USDT')).rejects.toBeInstanceOf(UnknownSymbolError);
    expect(await bob.fetchPositions()).toEqual([]);
    await expect(bob.setLeverage('BTC/USDT', 5)).rejects.toBeInstanceOf(UnsupportedOperationError);
  });

  it('on a swap: sets cross leverage, opens in contracts, reports the position, takes profit reduce-only', async () => {
    const swap = gateway(ALICE, 'future');
    await swap.setLeverage('BTC/USDT', 10);
    expect(JSON.parse(lastCall('POST', '/api/v5/account/set-leverage').body)).toEqual({
      lever: 10,
      mgnMode: 'cross',
      instId: 'BTC-USDT-SWAP',
    });
    const entryId = kid('swap', 'entry');
    const entry = await swap.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: entryId,
    });
    // 0.1 BTC is 10 contracts of 0.01; one-way (net) mode: no posSide.
    expect(placed()).toEqual({
      instId: 'BTC-USDT-SWAP',
      side: 'buy',
      ordType: 'market',
      sz: '10',
      tdMode: 'cross',
      clOrdId: entryId,
    });
    expect(entry).toMatchObject({ status: 'filled', amount: '0.1', filled: '0.1', average: '65001' });
    expect(await swap.fetchPositions()).toEqual([
      expect.objectContaining({
        symbol: 'BTC/USDT',
        side: 'long',
        amount: '0.1',
        entryPrice: '65001',
        leverage: '10',
      }),
    ]);
    expect((await swap.fetchBalances())['USDT']).toMatchObject({ used: '650' });

    /** A reduce-only market order the venue refuses with `sCode`, as an InvalidOrderError. */
    const refusedReduceOnly = async (side: 'buy' | 'sell', sCode: string) => {
      const order = { symbol: 'BTC/USDT', side, type: 'market' as const, amount: '0.1', reduceOnly: true };
      await expect(
        swap.createOrder({ ...order, clientOrderId: kid('swap', side, sCode) }),
      ).rejects.toBeInstanceOf(InvalidOrderError);
      expect(lastCall('POST', '/api/v5/trade/batch-orders').sCodes).toEqual([sCode]);
    };
    // Reduce-only in the position's own direction: refused (51170).
    await refusedReduceOnly('buy', '51170');

    const tpId = kid('swap', 'tp1');
    const takeProfit = await swap.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.1',
      price: '66000',
      reduceOnly: true,
      clientOrderId: tpId,
    });
    expect(placed()).toMatchObject({ sz: '10', px: '66000', reduceOnly: true, tdMode: 'cross' });
    expect(takeProfit).toMatchObject({ status: 'open', reduceOnly: true, amount: '0.1' });
    expect((await swap.fetchOpenOrders()).map((o) => o.clientOrderId)).toEqual([tpId]);

    venue.setPrice('BTC-USDT-SWAP', '66000');
    const filled = await swap.fetchOrderByClientId(tpId, 'BTC/USDT');
    expect(filled).toMatchObject({ status: 'filled', filled: '0.1', average: '66000' });
    const fills = await swap.fetchOrderFills(filled.venueOrderId, 'BTC/USDT', filled.timestamp - 60_000);
    expect(fills.map((f) => [f.side, f.price, f.amount, f.fee, f.feeCurrency, f.takerOrMaker])).toEqual([
      ['sell', '66000', '0.1', '1.32', 'USDT', 'maker'],
    ]);
    expect(await swap.fetchPositions()).toEqual([]);
    // From 9349.99: +99.9 realised, fees 0.05 % taker on 6500.1 and 0.02 % maker on 6600.
    expect(venue.cashBalance(ALICE.apiKey, 'USDT')).toBe('9445.31995');

    // Flat now: a reduce-only exit has nothing to reduce (51169).
    await refusedReduceOnly('sell', '51169');
    venue.setPrice('BTC-USDT', '65000');
  });

  it('reads every fill of an order that took more than one page of the fill list', async () => {
    // 130 small asks inside the spread from another account: one market buy takes them all, 130 fills.
    for (let i = 0; i < 130; i++) {
      const ask = { instId: 'BTC-USDT', tdMode: 'cash', side: 'sell', ordType: 'limit', px: '65000.5' };
      expect(venue.placeAtVenue(MAKER.apiKey, { ...ask, sz: '0.0001' }).sCode).toBe('0');
    }
    const alice = gateway(ALICE, 'spot');
    const sweep = await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.013',
      clientOrderId: kid('spot', 'sweep'),
    });
    expect(sweep).toMatchObject({ status: 'filled', filled: '0.013', average: '65000.5' });
    const from = since();
    const fills = await alice.fetchOrderFills(sweep.venueOrderId, 'BTC/USDT', sweep.timestamp - 60_000);
    expect(fills).toHaveLength(130);
    expect(new Set(fills.map((f) => f.venueTradeId)).size).toBe(130);
    const pages = callsSince(from).filter((r) => r.path === '/api/v5/trade/fills-history');
    // A full first page (100), then the next one older than its oldest billId.
    expect(pages.map((r) => new URLSearchParams(r.query).has('after'))).toEqual([false, true]);
  });

  it('refuses an order on an account in long/short (hedge) mode, where OKX wants a posSide', async () => {
    const hedger = gateway(HEDGER, 'future');
    await expect(
      hedger.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'market',
        amount: '0.01',
        clientOrderId: kid('hedger', 'entry'),
      }),
    ).rejects.toThrow(/posSide/);
    expect(lastCall('POST', '/api/v5/trade/batch-orders')).toMatchObject({
      apiKey: HEDGER.apiKey,
      sCodes: ['51000'],
    });
  });

  it('turns a timeout after OKX accepted an order into UnknownOutcomeError, settled by client id', async () => {
    const alice = gateway(ALICE, 'spot', { timeoutMs: 300 });
    const clientOrderId = kid('spot', 'slow');
    venue.delayNext({
      count: 1,
      ms: 800,
      match: (method, path) => method === 'POST' && path === '/api/v5/trade/batch-orders',
    });
    await expect(
      alice.createOrder({ symbol: 'SOL/USDT', side: 'buy', type: 'market', amount: '1', clientOrderId }),
    ).rejects.toBeInstanceOf(UnknownOutcomeError);
    expect(await alice.fetchOrderByClientId(clientOrderId, 'SOL/USDT')).toMatchObject({
      status: 'filled',
      filled: '1',
      clientOrderId,
    });
  });

  it('maps HTTP 429 / 50011 to RateLimitedError, and sends a refused order again once the venue pause is over', async () => {
    const alice = gateway(ALICE, 'spot');
    venue.failNext({ count: 1, match: (_m, path) => path === '/api/v5/market/ticker' });
    const error = await alice.fetchTicker('BTC/USDT').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    const limited = lastCall('GET', '/api/v5/market/ticker');
    expect(limited).toMatchObject({ status: 429, code: '50011' });
    // OKX sends no Retry-After: the whole venue pauses a second, then is asked again.
    expect((await alice.fetchTicker('BTC/USDT')).last).toBe('65000');
    expect(lastCall('GET', '/api/v5/market/ticker').receivedAt - limited.receivedAt).toBeGreaterThanOrEqual(
      900,
    );

    venue.failNext({
      count: 1,
      match: (method, path) => method === 'POST' && path.startsWith('/api/v5/trade/'),
    });
    const patient = gateway(ALICE, 'spot', { retry: { retries: 2, baseMs: 50, maxMs: 2_000 } });
    const clientOrderId = kid('spot', 'after-429');
    const order = await patient.createOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.01',
      clientOrderId,
    });
    expect(order).toMatchObject({ status: 'filled', clientOrderId });
    const posts = venue.requests.filter((r) => r.method === 'POST' && r.body.includes(clientOrderId));
    expect(posts.map((r) => r.status)).toEqual([429, 200]);
  });
});
