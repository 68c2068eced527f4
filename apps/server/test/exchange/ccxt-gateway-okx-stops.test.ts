import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { Decimal } from '../../src/exchange/decimal';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { OkxTestServer } from '../fakes/okx-server';
import { stopGatewayContract, stopsOf } from './stop-gateway-contract';

type Keys = { apiKey: string; secret: string; passphrase: string };
const LONG: Keys = { apiKey: 'okxStopsLong000001', secret: 'long-secret', passphrase: 'Long-pass1' };
const SHORT: Keys = { apiKey: 'okxStopsShort00002', secret: 'short-secret', passphrase: 'Short-pass2' };
const FLAT: Keys = { apiKey: 'okxStopsFlat000003', secret: 'flat-secret', passphrase: 'Flat-pass3' };
const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };

/** Issue 18: stops resting on OKX USDT swaps (algo orders), through ccxt 4.5 and `CcxtGateway.stops`. */
describe('CcxtGateway stops on OKX swaps against the OKX protocol server', () => {
  let venue: OkxTestServer;
  const marketCache = new MarketCache();

  beforeAll(async () => {
    venue = await OkxTestServer.start({
      accounts: [LONG, SHORT, FLAT].map((keys) => ({ ...keys, balances: { USDT: '100000' } })),
    });
  });
  afterAll(() => venue.close());

  function gateway(keys: Keys, overrides: { timeoutMs?: number } = {}): CcxtGateway {
    return new CcxtGateway({
      exchangeId: 'okx',
      apiKey: keys.apiKey,
      secret: keys.secret,
      password: keys.passphrase,
      marketType: 'future',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
      marketCache,
      retry: NO_RETRY,
      ...(overrides.timeoutMs ? { timeoutMs: overrides.timeoutMs } : {}),
    });
  }

  const algoCalls = (apiKey: string) =>
    venue.requests
      .filter((r) => r.apiKey === apiKey && r.path.includes('algo'))
      .map((r) => `${r.method} ${r.path}`);
  const lastAlgoPost = () =>
    JSON.parse(
      venue.requests.filter((r) => r.method === 'POST' && r.path === '/api/v5/trade/order-algo').at(-1)!.body,
    );

  it('offers venue stops on OKX swaps and spot', () => {
    expect(gateway(LONG).stops).not.toBeNull();
    const spot = new CcxtGateway({
      exchangeId: 'okx',
      apiKey: LONG.apiKey,
      secret: LONG.secret,
      password: LONG.passphrase,
      marketType: 'spot',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
    });
    expect(spot.stops).not.toBeNull();
  });

  it('places a stop-loss algo under a long (mark price, market, reduce-only, the margin mode), reads it by id and client id, and cancels it', async () => {
    const alice = gateway(LONG);
    const stops = stopsOf(alice);
    await alice.configureMargin('BTC/USDT', { leverage: 10, mode: 'isolated' });
    await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'longentry1',
    });
    expect(venue.positionContracts(LONG.apiKey, 'BTC-USDT-SWAP')).toBe('10');

    const stop = await stops.placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      clientOrderId: 'longstop1',
    });
    expect(stop).toMatchObject({
      clientOrderId: 'longstop1',
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      status: 'open',
      triggeredOrderId: null,
    });
    expect(lastAlgoPost()).toMatchObject({
      instId: 'BTC-USDT-SWAP',
      tdMode: 'isolated',
      side: 'sell',
      ordType: 'conditional',
      sz: '10',
      slTriggerPx: '64000',
      slOrdPx: '-1',
      slTriggerPxType: 'mark',
      reduceOnly: true,
      algoClOrdId: 'longstop1',
    });
    expect(venue.liveAlgoOrders(LONG.apiKey, 'BTC-USDT-SWAP')).toEqual([
      {
        algoId: stop.venueOrderId,
        algoClOrdId: 'longstop1',
        ordType: 'conditional',
        side: 'sell',
        posSide: 'net',
        tdMode: 'isolated',
        sz: '10',
        triggerPx: '64000',
        triggerPxType: 'mark',
        orderPx: '-1',
        reduceOnly: true,
      },
    ]);

    expect(await stops.fetchStop(stop.venueOrderId, 'BTC/USDT')).toEqual(stop);
    expect(await stops.fetchStopByClientId('longstop1', 'BTC/USDT')).toEqual(stop);

    const cancelled = await stops.cancelStop(stop.venueOrderId, 'BTC/USDT');
    expect(cancelled).toMatchObject({ venueOrderId: stop.venueOrderId, status: 'cancelled' });
    expect(venue.liveAlgoOrders(LONG.apiKey, 'BTC-USDT-SWAP')).toEqual([]);
    // Gone already (51400): answered with its state, not an error.
    expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'cancelled' });

    expect(algoCalls(LONG.apiKey)).toEqual([
      'POST /api/v5/trade/order-algo',
      'GET /api/v5/trade/order-algo',
      'GET /api/v5/trade/order-algo',
      'GET /api/v5/trade/order-algo',
      'POST /api/v5/trade/cancel-algos',
      'GET /api/v5/trade/order-algo',
      'POST /api/v5/trade/cancel-algos',
      'GET /api/v5/trade/order-algo',
    ]);
    const byClientId = venue.requests.find(
      (r) => r.method === 'GET' && r.path === '/api/v5/trade/order-algo' && r.query.includes('algoClOrdId='),
    );
    expect(byClientId?.query).toContain('algoClOrdId=longstop1');
  });

  it('a stop under a long triggers when the price falls through it: the position closes at market, fills and fees read back', async () => {
    const alice = gateway(LONG);
    const stops = stopsOf(alice);
    const stop = await stops.placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      clientOrderId: 'longstop2',
    });
    venue.setPrice('BTC-USDT', '64500');
    expect(await stops.fetchStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'open' });

    const cashBefore = new Decimal(venue.cashBalance(LONG.apiKey, 'USDT'));
    venue.setPrice('BTC-USDT', '63900');
    const triggered = await stops.fetchStop(stop.venueOrderId, 'BTC/USDT');
    expect(triggered).toMatchObject({ status: 'triggered', clientOrderId: 'longstop2', amount: '0.1' });
    expect(triggered.triggeredOrderId).toMatch(/^\d+$/);
    expect(triggered.triggeredOrderId).not.toBe(stop.venueOrderId);
    expect(venue.positionContracts(LONG.apiKey, 'BTC-USDT-SWAP')).toBe('0');
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
    expect(fills.length).toBeGreaterThan(0);
    const filled = fills.reduce((t, f) => t.plus(f.amount), new Decimal(0));
    expect(filled.toFixed()).toBe('0.1');
    for (const fill of fills) {
      expect(fill).toMatchObject({
        venueOrderId: triggered.triggeredOrderId,
        side: 'sell',
        feeCurrency: 'USDT',
      });
      expect(new Decimal(fill.price).lte(63900)).toBe(true);
      // Taker fee 0.05 % of the fill's notional.
      expect(fill.fee).toBe(
        new Decimal(fill.cost).times('0.0005').toDecimalPlaces(8, Decimal.ROUND_UP).toFixed(),
      );
    }
    // The cash moved by the realised loss less the fee (isolated margin came back with it).
    expect(new Decimal(venue.cashBalance(LONG.apiKey, 'USDT')).lt(cashBefore)).toBe(true);
    expect(venue.liveAlgoOrders(LONG.apiKey, 'BTC-USDT-SWAP')).toEqual([]);
    expect(venue.algoByClientId('longstop2')).toMatchObject({
      state: 'effective',
      ordId: triggered.triggeredOrderId,
    });
    // Triggered: a cancel answers with that, not an error.
    expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'triggered',
      triggeredOrderId: triggered.triggeredOrderId,
    });
    venue.setPrice('BTC-USDT', '65000');
  });

  it('a stop under a short triggers when the price rises through it (a reduce-only buy), read by client id', async () => {
    const bob = gateway(SHORT);
    const stops = stopsOf(bob);
    await bob.configureMargin('ETH/USDT', { leverage: 10, mode: 'cross' });
    await bob.createOrder({
      symbol: 'ETH/USDT',
      side: 'sell',
      type: 'market',
      amount: '2',
      clientOrderId: 'shortentry',
    });
    const stop = await stops.placeStop({
      symbol: 'ETH/USDT',
      side: 'buy',
      amount: '2',
      triggerPrice: '3300',
      clientOrderId: 'shortstop1',
    });
    expect(stop).toMatchObject({ side: 'buy', amount: '2', triggerPrice: '3300', status: 'open' });
    expect(lastAlgoPost()).toMatchObject({ tdMode: 'cross', side: 'buy', sz: '20', slTriggerPx: '3300' });

    venue.setPrice('ETH-USDT', '3310');
    const triggered = await stops.fetchStopByClientId('shortstop1', 'ETH/USDT');
    expect(triggered).toMatchObject({ venueOrderId: stop.venueOrderId, status: 'triggered' });
    expect(venue.positionContracts(SHORT.apiKey, 'ETH-USDT-SWAP')).toBe('0');
    const fills = await bob.fetchOrderFills(triggered.triggeredOrderId!, 'ETH/USDT');
    expect(fills.every((f) => f.side === 'buy' && new Decimal(f.price).gte(3310))).toBe(true);
    expect(fills.reduce((t, f) => t.plus(f.amount), new Decimal(0)).toFixed()).toBe('2');
    venue.setPrice('ETH-USDT', '3200');
  });

  stopGatewayContract(() => ({
    long: (options) => gateway(LONG, options),
    async flat() {
      const flat = gateway(FLAT);
      await flat.configureMargin('BTC/USDT', { leverage: 10, mode: 'cross' });
      return flat;
    },
    cid: (words) => words.replace(/ /g, ''),
    badCid: 'not-allowed',
    refusals: { triggered: /51280/, nothingToClose: /51169/ },
    expectDuplicateRefused(cid) {
      const posts = venue.requests.filter(
        (r) => r.method === 'POST' && r.path === '/api/v5/trade/order-algo',
      );
      expect(posts.at(-1)?.sCodes).toEqual(['51065']);
      expect(venue.liveAlgoOrders(LONG.apiKey, 'BTC-USDT-SWAP').map((a) => a.algoClOrdId)).toEqual([cid]);
    },
    delayNextPlacement: (ms) =>
      venue.delayNext({
        count: 1,
        ms,
        match: (method, path) => method === 'POST' && path === '/api/v5/trade/order-algo',
      }),
    expectResting: (cid, venueOrderId) =>
      expect(venue.algoByClientId(cid)).toMatchObject({ algoId: venueOrderId, state: 'live' }),
    setPrice: (price) => venue.setPrice('BTC-USDT', price),
    // OKX fails the algo at its trigger (order_failed) and sends no order.
    orphaned: {
      status: 'expired',
      atVenue: (cid) => expect(venue.algoByClientId(cid)).toMatchObject({ state: 'order_failed', ordId: '' }),
    },
  }));
});
