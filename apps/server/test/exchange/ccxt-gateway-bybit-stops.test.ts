import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BybitTestServer } from '../fakes/bybit-server';
import { stopGatewayContract, stopsOf } from './stop-gateway-contract';

const LONG = { apiKey: 'bybitStopsLong0000001', secret: 'long-secret' };
const SHORT = { apiKey: 'bybitStopsShort000001', secret: 'short-secret' };
const FLAT = { apiKey: 'bybitStopsFlat0000001', secret: 'flat-secret' };
const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };

/** Issue 18: stops resting on Bybit v5 linear perpetuals (conditional orders), through ccxt 4.5. */
describe('CcxtGateway stops on Bybit linear perpetuals against the Bybit protocol server', () => {
  let venue: BybitTestServer;

  beforeAll(async () => {
    venue = await BybitTestServer.start({
      accounts: [LONG, SHORT, FLAT].map((key) => ({ ...key, wallet: { USDT: '100000' } })),
    });
  });
  afterAll(() => venue.close());

  function gateway(
    key: { apiKey: string; secret: string },
    overrides: { marketType?: 'spot' | 'future'; timeoutMs?: number } = {},
  ): CcxtGateway {
    return new CcxtGateway({
      exchangeId: 'bybit',
      ...key,
      marketType: overrides.marketType ?? 'future',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
      marketCache: new MarketCache(),
      retry: NO_RETRY,
      ...(overrides.timeoutMs ? { timeoutMs: overrides.timeoutMs } : {}),
    });
  }

  const conditionalCalls = (apiKey: string) =>
    venue.requests
      .filter((r) => r.apiKey === apiKey && r.path.startsWith('/v5/order/'))
      .map((r) => `${r.method} ${r.path}`);

  it('offers venue stops on Bybit futures and spot', () => {
    expect(gateway(LONG).stops).not.toBeNull();
    expect(gateway(LONG, { marketType: 'spot' }).stops).not.toBeNull();
  });

  it('places a conditional stop under a long, reads it by id and client id, and cancels it (Deactivated)', async () => {
    const alice = gateway(LONG);
    const stops = stopsOf(alice);
    await alice.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'long-entry',
    });
    const from = venue.requests.length;
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
    const create = venue.requests.slice(from).find((r) => r.path === '/v5/order/create')!;
    expect(JSON.parse(create.body)).toMatchObject({
      category: 'linear',
      symbol: 'BTCUSDT',
      side: 'Sell',
      orderType: 'Market',
      qty: '0.1',
      triggerPrice: '64000',
      triggerDirection: 2,
      triggerBy: 'MarkPrice',
      reduceOnly: true,
      orderLinkId: 'long-stop-1',
    });
    // The acknowledgement holds the ids only: the stop was read back from the conditional orders.
    const read = venue.requests.slice(from).find((r) => r.path === '/v5/order/realtime')!;
    expect(read.query).toContain('orderFilter=StopOrder');
    expect(venue.positionSize(LONG.apiKey, 'BTCUSDT')).toBe('0.1');

    expect(await stops.fetchStop(stop.venueOrderId, 'BTC/USDT')).toEqual(stop);
    expect(await stops.fetchStopByClientId('long-stop-1', 'BTC/USDT')).toEqual(stop);
    const cancelled = await stops.cancelStop(stop.venueOrderId, 'BTC/USDT');
    expect(cancelled).toMatchObject({ venueOrderId: stop.venueOrderId, status: 'cancelled' });
    // Gone already: answered with its state, not an error.
    expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({ status: 'cancelled' });
    expect(conditionalCalls(LONG.apiKey).slice(-7)).toEqual([
      'GET /v5/order/realtime',
      'GET /v5/order/realtime',
      'GET /v5/order/realtime',
      'POST /v5/order/cancel',
      'GET /v5/order/realtime',
      'POST /v5/order/cancel',
      'GET /v5/order/realtime',
    ]);
    const byClientId = venue.requests.find(
      (r) => r.path === '/v5/order/realtime' && r.query.includes('orderLinkId=long-stop-1'),
    );
    expect(byClientId?.query).toContain('orderFilter=StopOrder');
  });

  it('a stop under a long triggers when the price falls to it: the position closes at market under the same order id, fills and fees read back', async () => {
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

    venue.setPrice('BTCUSDT', '63900');
    const triggered = await stops.fetchStop(stop.venueOrderId, 'BTC/USDT');
    expect(triggered).toMatchObject({
      status: 'triggered',
      clientOrderId: 'long-stop-2',
      triggeredOrderId: stop.venueOrderId,
    });
    expect(venue.positionSize(LONG.apiKey, 'BTCUSDT')).toBe('0');
    expect(await alice.fetchPositions()).toEqual([]);

    const fills = await alice.fetchOrderFills(triggered.triggeredOrderId!, 'BTC/USDT');
    // A taker sale one synthetic level under the price: 63899 × 0.1, 0.055 % fee.
    expect(fills).toEqual([
      expect.objectContaining({
        venueOrderId: stop.venueOrderId,
        side: 'sell',
        price: '63899',
        amount: '0.1',
        cost: '6389.9',
        fee: '3.514445',
        feeCurrency: 'USDT',
        takerOrMaker: 'taker',
      }),
    ]);
    // Triggered: a cancel answers with that, not an error.
    expect(await stops.cancelStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'triggered',
      triggeredOrderId: stop.venueOrderId,
    });
    venue.setPrice('BTCUSDT', '65000');
  });

  it('a stop under a short triggers when the price rises to it (a reduce-only buy)', async () => {
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
    const create = venue.requests.filter((r) => r.path === '/v5/order/create').at(-1)!;
    expect(JSON.parse(create.body)).toMatchObject({ side: 'Buy', triggerDirection: 1, reduceOnly: true });

    venue.setPrice('ETHUSDT', '3310');
    const triggered = await stops.fetchStopByClientId('short-stop-1', 'ETH/USDT');
    expect(triggered).toMatchObject({ venueOrderId: stop.venueOrderId, status: 'triggered' });
    expect(venue.positionSize(SHORT.apiKey, 'ETHUSDT')).toBe('0');
    const fills = await bob.fetchOrderFills(triggered.triggeredOrderId!, 'ETH/USDT');
    // Level step 0.1: the buy lifts 3310.1; 6620.2 × 0.055 %.
    expect(fills.map((f) => [f.side, f.price, f.amount, f.fee])).toEqual([['buy', '3310.1', '2', '3.64111']]);
    venue.setPrice('ETHUSDT', '3200');
  });

  stopGatewayContract(() => ({
    long: (options) => gateway(LONG, options),
    flat: async () => gateway(FLAT),
    cid: (words) => words.replace(/ /g, '-'),
    badCid: 'not allowed!',
    refusals: { triggered: /110093/, nothingToClose: /110017/ },
    expectDuplicateRefused(cid) {
      const creates = venue.requests.filter((r) => r.path === '/v5/order/create');
      expect(creates.at(-1)?.retCode).toBe(110072);
      expect(venue.orderByLinkId(cid)).toMatchObject({ status: 'Untriggered' });
    },
    delayNextPlacement: (ms) =>
      venue.delayNext({
        count: 1,
        ms,
        match: (method, path) => method === 'POST' && path === '/v5/order/create',
      }),
    expectResting: (cid, venueOrderId) =>
      expect(venue.orderByLinkId(cid)).toMatchObject({ orderId: venueOrderId, status: 'Untriggered' }),
    setPrice: (price) => venue.setPrice('BTCUSDT', price),
    // Bybit deactivates a conditional order with the position it was to close.
    orphaned: { status: 'cancelled' },
  }));

  it('reads an ended stop from the order history once Bybit forgot its recent ended orders (a service restart)', async () => {
    const bob = gateway(SHORT);
    const stops = stopsOf(bob);
    await bob.createOrder({
      symbol: 'ETH/USDT',
      side: 'sell',
      type: 'market',
      amount: '1',
      clientOrderId: 'short-entry-2',
    });
    const stop = await stops.placeStop({
      symbol: 'ETH/USDT',
      side: 'buy',
      amount: '1',
      triggerPrice: '3300',
      clientOrderId: 'short-stop-forgotten',
    });
    venue.setPrice('ETHUSDT', '3320');
    venue.forgetRecentOrders();
    const from = venue.requests.length;
    expect(await stops.fetchStop(stop.venueOrderId, 'ETH/USDT')).toMatchObject({
      status: 'triggered',
      triggeredOrderId: stop.venueOrderId,
    });
    expect(await stops.fetchStopByClientId('short-stop-forgotten', 'ETH/USDT')).toMatchObject({
      venueOrderId: stop.venueOrderId,
      status: 'triggered',
    });
    const history = venue.requests.slice(from).filter((r) => r.path === '/v5/order/history');
    expect(history).toHaveLength(2);
    expect(history.every((r) => r.query.includes('orderFilter=StopOrder'))).toBe(true);
    expect(venue.positionSize(SHORT.apiKey, 'ETHUSDT')).toBe('0');
    venue.setPrice('ETHUSDT', '3200');
  });
});
