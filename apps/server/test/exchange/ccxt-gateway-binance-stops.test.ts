import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { Decimal } from '../../src/exchange/decimal';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BinanceTestServer } from '../fakes/binance-server';
import { stopGatewayContract, stopsOf } from './stop-gateway-contract';

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

  it('offers venue stops on Binance futures and spot (the capability table)', () => {
    expect(gateway(LONG).stops).not.toBeNull();
    expect(gateway(LONG, { exchangeId: 'binance' }).stops).not.toBeNull();
    const spot = new CcxtGateway({
      exchangeId: 'binance',
      ...LONG,
      marketType: 'spot',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
    });
    expect(spot.stops).not.toBeNull();
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

  stopGatewayContract(() => ({
    long: (options) => gateway(LONG, options),
    flat: async () => gateway(FLAT),
    cid: (words) => words.replace(/ /g, '-'),
    badCid: 'not allowed!',
    refusals: { triggered: /-2021/, nothingToClose: /-2022/ },
    expectDuplicateRefused(cid) {
      // The venue refused the second one (-4116) and the gateway answered with the first.
      const posts = venue.requests.filter((r) => r.method === 'POST' && r.path === '/fapi/v1/algoOrder');
      expect(posts.at(-1)?.status).toBe(400);
      expect(venue.liveAlgoOrders(LONG.apiKey, 'BTCUSDT').map((a) => a.clientAlgoId)).toEqual([cid]);
    },
    delayNextPlacement: (ms) =>
      venue.delayNext({
        count: 1,
        ms,
        match: (method, path) => method === 'POST' && path === '/fapi/v1/algoOrder',
      }),
    expectResting: (cid, venueOrderId) =>
      expect(venue.algoOrderByClientId(cid)).toMatchObject({
        algoId: Number(venueOrderId),
        algoStatus: 'NEW',
      }),
    setPrice: (price) => venue.setPrice('BTCUSDT', price),
    orphaned: { status: 'expired' },
  }));
});
