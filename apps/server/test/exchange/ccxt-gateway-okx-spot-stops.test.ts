import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPOT_VENUE_STOPS } from '../../src/exchange/capabilities';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { OkxTestServer } from '../fakes/okx-server';
import { spotStopLimitContract } from './spot-stop-gateway-contract';
import { stopsOf } from './stop-gateway-contract';

const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };

/** Issue 18: spot stop-limits on OKX (conditional algo orders), through ccxt 4.5 and `CcxtGateway.stops`. */
describe('CcxtGateway spot stop-limits on OKX against the OKX protocol server', () => {
  let venue: OkxTestServer;
  const marketCache = new MarketCache();
  let accounts = 0;
  let lastKey = '';

  beforeAll(async () => {
    venue = await OkxTestServer.start();
  });
  afterAll(() => venue.close());

  async function account(): Promise<CcxtGateway> {
    const keys = {
      apiKey: `okxSpotStops${String(++accounts).padStart(6, '0')}`,
      secret: `secret-${accounts}`,
      passphrase: `Pass-${accounts}`,
    };
    venue.addAccount({ ...keys, balances: { BTC: '0.3', USDT: '1000' } });
    lastKey = keys.apiKey;
    return new CcxtGateway({
      exchangeId: 'okx',
      apiKey: keys.apiKey,
      secret: keys.secret,
      password: keys.passphrase,
      marketType: 'spot',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
      marketCache,
      retry: NO_RETRY,
      venueStops: SPOT_VENUE_STOPS.okx,
    });
  }

  spotStopLimitContract(() => ({
    account,
    cid: (words) => words.replace(/ /g, ''),
    setPrice: (price) => venue.setPrice('BTC-USDT', price),
    triggeredRefusal: /SL trigger price must be lower than the last price/,
  }));

  it('sends a conditional algo order with slTriggerPx, slOrdPx at the limit and tdMode cash; triggered, its ordId is the limit order', async () => {
    const alice = await account();
    const stop = await stopsOf(alice).placeStop({
      symbol: 'BTC/USDT',
      side: 'sell',
      amount: '0.1',
      triggerPrice: '64000',
      limitPrice: '63700',
      clientOrderId: 'okxSpotStop',
    });
    const sent = JSON.parse(
      venue.requests.filter((r) => r.method === 'POST' && r.path === '/api/v5/trade/order-algo').at(-1)!.body,
    ) as Record<string, unknown>;
    expect(sent).toMatchObject({
      instId: 'BTC-USDT',
      tdMode: 'cash',
      side: 'sell',
      ordType: 'conditional',
      sz: '0.1',
      slTriggerPx: '64000',
      slOrdPx: '63700',
      slTriggerPxType: 'last',
      algoClOrdId: 'okxSpotStop',
    });
    expect(sent).not.toHaveProperty('reduceOnly');
    expect(venue.liveAlgoOrders(lastKey, 'BTC-USDT')).toHaveLength(1);
    try {
      venue.setPrice('BTC-USDT', '63900');
      const triggered = await stopsOf(alice).fetchStop(stop.venueOrderId, 'BTC/USDT');
      expect(triggered.status).toBe('triggered');
      expect(triggered.triggeredOrderId).toBe(venue.algoByClientId('okxSpotStop')!.ordId);
      expect(triggered.triggeredOrderId).not.toBe(stop.venueOrderId);
    } finally {
      venue.setPrice('BTC-USDT', '65000');
    }
  });
});
