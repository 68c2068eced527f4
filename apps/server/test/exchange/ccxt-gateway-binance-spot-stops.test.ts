import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPOT_VENUE_STOPS } from '../../src/exchange/capabilities';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BinanceTestServer } from '../fakes/binance-server';
import { spotStopLimitContract } from './spot-stop-gateway-contract';
import { stopsOf } from './stop-gateway-contract';

const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };

/** Issue 18: spot stop-limits on Binance (STOP_LOSS_LIMIT), through ccxt 4.5 and `CcxtGateway.stops`. */
describe('CcxtGateway spot stop-limits on Binance against the Binance protocol server', () => {
  let venue: BinanceTestServer;
  let accounts = 0;
  let lastKey = '';

  beforeAll(async () => {
    venue = await BinanceTestServer.start();
  });
  afterAll(() => venue.close());

  async function account(): Promise<CcxtGateway> {
    const key = { apiKey: `spotStops${String(++accounts).padStart(15, '0')}`, secret: `secret-${accounts}` };
    venue.addAccount({ ...key, balances: { BTC: '0.3', USDT: '1000' } });
    lastKey = key.apiKey;
    return new CcxtGateway({
      exchangeId: 'binance',
      ...key,
      marketType: 'spot',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
      retry: NO_RETRY,
      venueStops: SPOT_VENUE_STOPS.binance,
    });
  }

  spotStopLimitContract(() => ({
    account,
    cid: (words) => words.replace(/ /g, '-'),
    setPrice: (price) => venue.setPrice('BTCUSDT', price),
    triggeredRefusal: /Stop price would trigger immediately/,
  }));

  it('sends a STOP_LOSS_LIMIT (stopPrice, price, GTC, no reduceOnly) to the order endpoint: one order, its id the triggered one', async () => {
    const alice = await account();
    const stop = await stopsOf(alice).placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      limitPrice: '63700',
      clientOrderId: 'binance-spot-stop',
    });
    const placement = venue.requests.findLast((r) => r.method === 'POST' && r.path === '/api/v3/order')!;
    const sent = new URLSearchParams(`${placement.query}&${placement.body}`);
    expect(
      Object.fromEntries(
        ['type', 'side', 'quantity', 'price', 'stopPrice', 'timeInForce', 'newClientOrderId'].map((k) => [
          k,
          sent.get(k),
        ]),
      ),
    ).toEqual({
      type: 'STOP_LOSS_LIMIT',
      side: 'SELL',
      quantity: '0.1',
      price: '63700',
      stopPrice: '64000',
      timeInForce: 'GTC',
      newClientOrderId: 'binance-spot-stop',
    });
    expect(sent.has('reduceOnly')).toBe(false);
    // Binance lists a waiting STOP_LOSS_LIMIT among the open orders; the gateway leaves it to `stops`.
    expect(venue.liveOrders(lastKey, 'BTCUSDT', 'spot')).toMatchObject([
      { clientOrderId: 'binance-spot-stop' },
    ]);
    expect(await alice.fetchOpenOrders('BTC/USDT')).toEqual([]);
    try {
      venue.setPrice('BTCUSDT', '63900');
      expect(await stopsOf(alice).fetchStop(stop.venueOrderId, 'BTC/USDT')).toMatchObject({
        status: 'triggered',
        triggeredOrderId: stop.venueOrderId,
      });
    } finally {
      venue.setPrice('BTCUSDT', '65000');
    }
  });
});
