import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { Decimal } from '../../src/exchange/decimal';
import { InvalidOrderError, OrderNotFoundError, UnknownOutcomeError } from '../../src/exchange/errors';
import type { VenueStops } from '../../src/exchange/gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BinanceTestServer } from '../venues/binance-server';

const LONG = { apiKey: 'stopsLong000000000000001', secret: 'long-secret' };
const SHORT = { apiKey: 'stopsShort00000000000001', secret: 'short-secret' };
const FLAT = { apiKey: 'stopsFlat000000000000001', secret: 'flat-secret' };
const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };

/** Issue 18: stops resting on Binance USDⓈ-M (the Algo Service), through ccxt 4.5 and `CcxtGateway.stops`. */
describe('CcxtGateway stops on Binance USDⓈ-M against the Binance protocol server', () => {
  let venue: BinanceTestServer;

  beforeAll(async () => {
    venue = await BinanceTestServer.start({
      accounts: [LONG, SHORT, FLAT].map((key) => ({ ...key, futuresWallet: '100000' })),
    });
  });
  afterAll(() => venue.close());

  function gateway(
    key: { apiKey: string; secret: string },
    overrides: { exchangeId?: string; timeoutMs?: number } = {},
  ): CcxtGateway {
    return new CcxtGateway({
      exchangeId: overrides.exchangeId ?? 'binanceusdm',
      ...key,
      marketType: 'future',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
      marketCache: new MarketCache(),
      retry: NO_RETRY,
      ...(overrides.timeoutMs ? { timeoutMs: overrides.timeoutMs } : {}),
    });
  }

  function stopsOf(g: CcxtGateway): VenueStops {
    expect(g.stops).not.toBeNull();
    return g.stops!;
  }

  it('offers venue stops on Binance futures, not spot (the capability table)', () => {
    expect(gateway(LONG).stops).not.toBeNull();
    expect(gateway(LONG, { exchangeId: 'binance' }).stops).not.toBeNull();
    const spot = new CcxtGateway({
      exchangeId: 'binance',
      ...LONG,
      marketType: 'spot',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
    });
    expect(spot.stops).toBeNull();
  });

  it('places a stop under a long in the Algo Service, reads it by id and client id, and cancels it', async () => {
    const alice = gateway(LONG);
    const stops = stopsOf(alice);
    await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'long-entry',
    });

    const stop = await stops.placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      clientOrderId: 'long-stop-1',
    });
    expect(stop).toMatchObject({
      clientOrderId: 'long-stop-1',
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      status: 'open',
      triggeredOrderId: null,
    });
    expect(venue.liveAlgoOrders(LONG.apiKey, 'BTCUSDT')).toEqual([
      {
        algoId: Number(stop.venueOrderId),
        clientAlgoId: 'long-stop-1',
        side: 'SELL',
        orderType: 'STOP_MARKET',
        quantity: '0.1',
        triggerPrice: '64000',
        workingType: 'MARK_PRICE',
        reduceOnly: true,
        closePosition: false,
      },
    ]);
    // Nothing reached the matching engine: no order rests there, no margin is held for it.
    expect(venue.liveOrders(LONG.apiKey, 'BTCUSDT')).toEqual([]);

    expect(await stops.fetchStop(stop.venueOrderId, 'BTC/USDT')).toEqual(stop);
    expect(await stops.fetchStopByClientId('long-stop-1', 'BTC/USDT')).toEqual(stop);

    const cancelled = await stops.cancelStop(stop.venueOrderId, 'BTC/USDT');
    expect(cancelled).toMatchObject({ venueOrderId: stop.venueOrderId, status: 'cancelled' });
    expect(venue.liveAlgoOrders(LONG.apiKey, 'BTCUSDT')).toEqual([]);
    // Gone already: answered with its state, not an error.
    expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'cancelled' });

    const algoCalls = venue.requests
      .filter((r) => r.apiKey === LONG.apiKey && r.path.includes('lgo'))
      .map((r) => `${r.method} ${r.path}`);
    expect(algoCalls).toEqual([
      'POST /fapi/v1/algoOrder',
      'GET /fapi/v1/algoOrder',
      'GET /fapi/v1/algoOrder',
      'DELETE /fapi/v1/algoOrder',
      'GET /fapi/v1/algoOrder',
      'DELETE /fapi/v1/algoOrder',
      'GET /fapi/v1/algoOrder',
    ]);
    const byClientId = venue.requests.find(
      (r) => r.method === 'GET' && r.path === '/fapi/v1/algoOrder' && r.query.includes('clientAlgoId='),
    );
    expect(byClientId?.query).toContain('clientAlgoId=long-stop-1');
  });

  it('a stop under a long triggers when the price falls through it: the position closes at market, fills and fees read back', async () => {
    const alice = gateway(LONG);
    const stops = stopsOf(alice);
    const stop = await stops.placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      clientOrderId: 'long-stop-2',
    });
    venue.setPrice('BTCUSDT', '64500');
    expect(await stops.fetchStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'open' });

    const walletBefore = venue.futuresWallet(LONG.apiKey);
    venue.setPrice('BTCUSDT', '63900');
    const triggered = await stops.fetchStop(stop.venueOrderId, 'BTC/USDT');
    expect(triggered).toMatchObject({ status: 'triggered', clientOrderId: 'long-stop-2' });
    expect(triggered.triggeredOrderId).toMatch(/^\d+$/);
    expect(triggered.triggeredOrderId).not.toBe(stop.venueOrderId);
    expect(await alice.fetchPositions()).toEqual([]);

    const exit = await alice.fetchOrder(triggered.triggeredOrderId!, 'BTC/USDT');
    expect(exit).toMatchObject({
      type: 'market',
      side: 'sell',
      status: 'filled',
      filled: '0.1',
      reduceOnly: true,
    });
    const fills = await alice.fetchOrderFills(triggered.triggeredOrderId!, 'BTC/USDT');
    // A taker sale one synthetic level under the price: 63899 × 0.1, 0.04 % fee.
    expect(fills).toEqual([
      expect.objectContaining({
        venueOrderId: triggered.triggeredOrderId,
        side: 'sell',
        price: '63899',
        amount: '0.1',
        cost: '6389.9',
        fee: '2.55596',
        feeCurrency: 'USDT',
        takerOrMaker: 'taker',
      }),
    ]);
    // Entry at 65001: −110.2 realised, less the fee.
    expect(venue.futuresWallet(LONG.apiKey)).toBe(
      new Decimal(walletBefore).minus('110.2').minus('2.55596').toFixed(),
    );
    expect(venue.liveAlgoOrders(LONG.apiKey, 'BTCUSDT')).toEqual([]);
    // Triggered: a cancel answers with that, not an error.
    expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'triggered',
      triggeredOrderId: triggered.triggeredOrderId,
    });
    venue.setPrice('BTCUSDT', '65000');
  });

  it('a stop under a short triggers when the price rises through it (a reduce-only buy)', async () => {
    const bob = gateway(SHORT);
    const stops = stopsOf(bob);
    await bob.createOrder({
      symbol: 'ETH/USDT',
      side: 'sell',
      type: 'market',
      amount: '2',
      clientOrderId: 'short-entry',
    });
    const stop = await stops.placeStop({
      symbol: 'ETH/USDT',
      side: 'buy',
      amount: '2',
      triggerPrice: '3300',
      clientOrderId: 'short-stop-1',
    });
    expect(stop).toMatchObject({ side: 'buy', amount: '2', triggerPrice: '3300', status: 'open' });

    venue.setPrice('ETHUSDT', '3310');
    const triggered = await stops.fetchStopByClientId('short-stop-1', 'ETH/USDT');
    expect(triggered).toMatchObject({ venueOrderId: stop.venueOrderId, status: 'triggered' });
    expect(venue.positionAmount(SHORT.apiKey, 'ETHUSDT')).toBe('0');
    const fills = await bob.fetchOrderFills(triggered.triggeredOrderId!, 'ETH/USDT');
    // Tick 0.01 × 10 per level: the buy lifts 3310.1.
    expect(fills.map((f) => [f.side, f.price, f.amount, f.fee])).toEqual([['buy', '3310.1', '2', '2.64808']]);
    venue.setPrice('ETHUSDT', '3200');
  });

  it('refuses a stop its trigger price has already passed (-2021), and a reduce-only stop with nothing to close (-2022)', async () => {
    const alice = gateway(LONG);
    await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.05',
      clientOrderId: 'long-entry-2',
    });
    const immediate = stopsOf(alice).placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.05',
      triggerPrice: '65500',
      clientOrderId: 'long-stop-through',
    });
    await expect(immediate).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(immediate).rejects.toThrow(/-2021/);

    const flat = stopsOf(gateway(FLAT)).placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.05',
      triggerPrice: '60000',
      clientOrderId: 'flat-stop',
    });
    await expect(flat).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(flat).rejects.toThrow(/-2022/);
    await expect(stopsOf(gateway(FLAT)).fetchStopByClientId('flat-stop', 'BTC/USDT')).rejects.toBeInstanceOf(
      OrderNotFoundError,
    );
  });

  it('refuses a client id outside Binance rule before sending it', async () => {
    await expect(
      stopsOf(gateway(LONG)).placeStop({
        symbol: 'BTC/USDT',
        side: 'sell',
        amount: '0.05',
        triggerPrice: '60000',
        clientOrderId: 'not allowed!',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);
  });

  it('answers a second placement with the same client id with the stop already resting', async () => {
    const stops = stopsOf(gateway(LONG));
    const request = {
      symbol: 'BTC/USDT',
      side: 'sell' as const,
      amount: '0.05',
      triggerPrice: '60000',
      clientOrderId: 'long-stop-dup',
    };
    const first = await stops.placeStop(request);
    const again = await stops.placeStop(request);
    expect(again).toEqual(first);
    // The venue refused the second one (-4116) and the gateway answered with the first.
    const posts = venue.requests.filter((r) => r.method === 'POST' && r.path === '/fapi/v1/algoOrder');
    expect(posts.at(-1)?.status).toBe(400);
    expect(venue.liveAlgoOrders(LONG.apiKey, 'BTCUSDT').map((a) => a.clientAlgoId)).toEqual([
      'long-stop-dup',
    ]);
    await stops.cancelStop(first.venueOrderId, 'BTC/USDT');
  });

  it('turns a timeout after the venue took the stop into UnknownOutcomeError, settled by client id', async () => {
    const stops = stopsOf(gateway(LONG, { timeoutMs: 300 }));
    venue.delayNext({
      count: 1,
      ms: 1_000,
      match: (method, path) => method === 'POST' && path === '/fapi/v1/algoOrder',
    });
    await expect(
      stops.placeStop({
        symbol: 'BTC/USDT',
        side: 'sell',
        amount: '0.05',
        triggerPrice: '61000',
        clientOrderId: 'long-stop-lost',
      }),
    ).rejects.toBeInstanceOf(UnknownOutcomeError);
    const settled = await stops.fetchStopByClientId('long-stop-lost', 'BTC/USDT');
    expect(settled).toMatchObject({ clientOrderId: 'long-stop-lost', status: 'open', triggerPrice: '61000' });
    expect(venue.algoOrderByClientId('long-stop-lost')).toMatchObject({
      algoId: Number(settled.venueOrderId),
      algoStatus: 'NEW',
    });
    await stops.cancelStop(settled.venueOrderId, 'BTC/USDT');
  });

  it('a stop whose position was closed meanwhile expires at its trigger, sending nothing', async () => {
    const alice = gateway(LONG);
    const stops = stopsOf(alice);
    const stop = await stops.placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.05',
      triggerPrice: '64000',
      clientOrderId: 'long-stop-orphan',
    });
    await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'market',
      amount: '0.05',
      reduceOnly: true,
      clientOrderId: 'long-exit-2',
    });
    expect(await alice.fetchPositions()).toEqual([]);
    venue.setPrice('BTCUSDT', '63000');
    expect(await stops.fetchStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'expired',
      triggeredOrderId: null,
    });
    expect(await alice.fetchPositions()).toEqual([]);
    venue.setPrice('BTCUSDT', '65000');
  });
});
