import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPOT_VENUE_STOPS } from '../../src/exchange/capabilities';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BinanceTestServer } from '../fakes/binance-server';
import { BybitTestServer } from '../fakes/bybit-server';
import { OkxTestServer } from '../fakes/okx-server';
import { spotStopLimitContract } from './spot-stop-gateway-contract';
import { stopsOf } from './stop-gateway-contract';

const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };

type Server = { origin: string; close(): Promise<void> };
type Venue = 'binance' | 'okx' | 'bybit';

/**
 * Issue 18: spot stop-limits through ccxt 4.5 and `CcxtGateway.stops` (`SPOT_VENUE_STOPS`, not in the rows yet)
 * against a venue's protocol server: the shared contract, then what that venue's requests and answers say.
 */
function spotStopsSuite<S extends Server>(
  exchangeId: Venue,
  options: {
    start(): Promise<S>;
    /** Adds an account holding 0.3 BTC and 1000 USDT; its keys. */
    addAccount(server: S, n: number): { apiKey: string; secret: string; password?: string };
    cid(words: string): string;
    setPrice(server: S, price: string): void;
    triggeredRefusal: RegExp;
    more(context: { server(): S; account(): Promise<{ gateway: CcxtGateway; apiKey: string }> }): void;
  },
) {
  describe(`CcxtGateway spot stop-limits on ${exchangeId} against its protocol server`, () => {
    let server: S;
    let accounts = 0;
    const marketCache = new MarketCache();
    beforeAll(async () => {
      server = await options.start();
    });
    afterAll(() => server.close());

    async function account() {
      const keys = options.addAccount(server, ++accounts);
      const gateway = new CcxtGateway({
        exchangeId,
        ...keys,
        marketType: 'spot',
        apiUrls: server.origin,
        throttle: new VenueThrottleRegistry(),
        marketCache,
        retry: NO_RETRY,
        venueStops: SPOT_VENUE_STOPS[exchangeId],
      });
      return { gateway, apiKey: keys.apiKey };
    }

    spotStopLimitContract(() => ({
      account: async () => (await account()).gateway,
      cid: options.cid,
      setPrice: (price) => options.setPrice(server, price),
      triggeredRefusal: options.triggeredRefusal,
    }));
    options.more({ server: () => server, account });
  });
}

/** Once the price went through its trigger the stop is triggered, its order its own id (one order throughout). */
async function expectTriggeredUnderItsOwnId(
  gateway: CcxtGateway,
  venueOrderId: string,
  setPrice: (price: string) => void,
) {
  try {
    setPrice('63900');
    expect(await stopsOf(gateway).fetchStop(venueOrderId, 'BTC/USDT')).toMatchObject({
      status: 'triggered',
      triggeredOrderId: venueOrderId,
    });
  } finally {
    setPrice('65000');
  }
}

const stopLimit = (clientOrderId: string) => ({
  symbol: 'BTC/USDT',
  side: 'sell' as const,
  amount: '0.1',
  triggerPrice: '64000',
  limitPrice: '63700',
  clientOrderId,
});

spotStopsSuite('binance', {
  start: () => BinanceTestServer.start(),
  addAccount(server, n) {
    const keys = { apiKey: `spotStops${String(n).padStart(15, '0')}`, secret: `secret-${n}` };
    (server as BinanceTestServer).addAccount({ ...keys, balances: { BTC: '0.3', USDT: '1000' } });
    return keys;
  },
  cid: (words) => words.replace(/ /g, '-'),
  setPrice: (server, price) => server.setPrice('BTCUSDT', price),
  triggeredRefusal: /Stop price would trigger immediately/,
  more: ({ server, account }) => {
    it('sends a STOP_LOSS_LIMIT (stopPrice, price, GTC, no reduceOnly) to the order endpoint: one order, its id the triggered one', async () => {
      const { gateway, apiKey } = await account();
      const stop = await stopsOf(gateway).placeStop(stopLimit('binance-spot-stop'));
      const placement = server().requests.findLast((r) => r.method === 'POST' && r.path === '/api/v3/order')!;
      const sent = new URLSearchParams(`${placement.query}&${placement.body}`);
      const fields = ['type', 'side', 'quantity', 'price', 'stopPrice', 'timeInForce', 'newClientOrderId'];
      expect(Object.fromEntries(fields.map((k) => [k, sent.get(k)]))).toEqual({
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
      expect(server().liveOrders(apiKey, 'BTCUSDT', 'spot')).toMatchObject([
        { clientOrderId: 'binance-spot-stop' },
      ]);
      expect(await gateway.fetchOpenOrders('BTC/USDT')).toEqual([]);
      await expectTriggeredUnderItsOwnId(gateway, stop.venueOrderId, (price) =>
        server().setPrice('BTCUSDT', price),
      );
    });
  },
});

spotStopsSuite('okx', {
  start: () => OkxTestServer.start(),
  addAccount(server, n) {
    const keys = { apiKey: `okxSpotStops${String(n).padStart(6, '0')}`, secret: `secret-${n}` };
    const password = `Pass-${n}`;
    (server as OkxTestServer).addAccount({
      ...keys,
      passphrase: password,
      balances: { BTC: '0.3', USDT: '1000' },
    });
    return { ...keys, password };
  },
  cid: (words) => words.replace(/ /g, ''),
  setPrice: (server, price) => server.setPrice('BTC-USDT', price),
  triggeredRefusal: /SL trigger price must be lower than the last price/,
  more: ({ server, account }) => {
    it('sends a conditional algo order with slTriggerPx, slOrdPx at the limit and tdMode cash; triggered, its ordId is the limit order', async () => {
      const { gateway, apiKey } = await account();
      const stop = await stopsOf(gateway).placeStop(stopLimit('okxSpotStop'));
      const sent = JSON.parse(
        server()
          .requests.filter((r) => r.method === 'POST' && r.path === '/api/v5/trade/order-algo')
          .at(-1)!.body,
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
      expect(server().liveAlgoOrders(apiKey, 'BTC-USDT')).toHaveLength(1);
      try {
        server().setPrice('BTC-USDT', '63900');
        const triggered = await stopsOf(gateway).fetchStop(stop.venueOrderId, 'BTC/USDT');
        expect(triggered.status).toBe('triggered');
        expect(triggered.triggeredOrderId).toBe(server().algoByClientId('okxSpotStop')!.ordId);
        expect(triggered.triggeredOrderId).not.toBe(stop.venueOrderId);
      } finally {
        server().setPrice('BTC-USDT', '65000');
      }
    });
  },
});

spotStopsSuite('bybit', {
  start: () => BybitTestServer.start(),
  addAccount(server, n) {
    const keys = { apiKey: `bybitSpotStops${String(n).padStart(4, '0')}`, secret: `secret-${n}` };
    (server as BybitTestServer).addAccount({ ...keys, wallet: { BTC: '0.3', USDT: '1000' } });
    return keys;
  },
  cid: (words) => words.replace(/ /g, '-'),
  setPrice: (server, price) => server.setPrice('BTCUSDT', price),
  triggeredRefusal: /would immediately trigger/,
  more: ({ server, account }) => {
    it('sends a spot TP/SL limit order (orderFilter tpslOrder, triggerPrice, no direction); triggered, it keeps its orderId', async () => {
      const { gateway } = await account();
      const stop = await stopsOf(gateway).placeStop(stopLimit('bybit-spot-stop'));
      const placement = server().requests.findLast(
        (r) => r.method === 'POST' && r.path === '/v5/order/create',
      )!;
      const sent = JSON.parse(placement.body) as Record<string, unknown>;
      expect(sent).toMatchObject({
        category: 'spot',
        symbol: 'BTCUSDT',
        side: 'Sell',
        orderType: 'Limit',
        qty: '0.1',
        price: '63700',
        triggerPrice: '64000',
        orderFilter: 'tpslOrder',
        orderLinkId: 'bybit-spot-stop',
      });
      expect(sent).not.toHaveProperty('triggerDirection');
      expect(sent).not.toHaveProperty('reduceOnly');
      await expectTriggeredUnderItsOwnId(gateway, stop.venueOrderId, (price) =>
        server().setPrice('BTCUSDT', price),
      );
    });
  },
});
