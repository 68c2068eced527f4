import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BinanceTestServer } from '../fakes/binance-server';
import { BybitTestServer } from '../fakes/bybit-server';
import { OkxTestServer } from '../fakes/okx-server';

/**
 * The host's clock drifts two minutes ahead of the venue's after Kairos started: every signed call is outside
 * the venue's receive window. The first refusal makes the gateway read the venue's time and send the call
 * again with it — once, for a read and for an order alike (refused before execution, so nothing runs twice).
 * With no retries allowed by the policy, the recovery is the resync itself, not a lucky second attempt.
 */
const NO_RETRY = { retries: 0, baseMs: 10, maxMs: 100 };
const DRIFT_MS = -120_000;

type Venue = {
  name: string;
  start(): Promise<{
    gateway: CcxtGateway;
    skew(ms: number): void;
    paths(): string[];
    close(): Promise<void>;
  }>;
  timePath: string;
  balancePath: string;
  orderPath: string;
};

const keys = { apiKey: 'skewKey00000000000001', secret: 'skew-secret', passphrase: 'Skew-pass1' };
const common = { throttle: new VenueThrottleRegistry(), marketCache: new MarketCache(), retry: NO_RETRY };

const VENUES: Venue[] = [
  {
    name: 'Binance USDⓈ-M',
    timePath: '/fapi/v1/time',
    balancePath: '/fapi/v3/account',
    orderPath: '/fapi/v1/order',
    async start() {
      const venue = await BinanceTestServer.start({ accounts: [{ ...keys, futuresWallet: '10000' }] });
      venue.setPrice('BTCUSDT', '65000.00');
      const gateway = new CcxtGateway({
        exchangeId: 'binanceusdm',
        ...keys,
        marketType: 'future',
        apiUrls: venue.origin,
        ...common,
      });
      return {
        gateway,
        skew: (ms) => (venue.clockOffsetMs = ms),
        paths: () => venue.requests.map((r) => r.path),
        close: () => venue.close(),
      };
    },
  },
  {
    name: 'Bybit linear',
    timePath: '/v5/market/time',
    balancePath: '/v5/account/wallet-balance',
    orderPath: '/v5/order/create',
    async start() {
      const venue = await BybitTestServer.start({ accounts: [{ ...keys, wallet: { USDT: '10000' } }] });
      const gateway = new CcxtGateway({
        exchangeId: 'bybit',
        ...keys,
        marketType: 'future',
        apiUrls: venue.origin,
        ...common,
      });
      return {
        gateway,
        skew: (ms) => (venue.clockOffsetMs = ms),
        paths: () => venue.requests.map((r) => r.path),
        close: () => venue.close(),
      };
    },
  },
  {
    name: 'OKX swap',
    timePath: '/api/v5/public/time',
    balancePath: '/api/v5/account/balance',
    orderPath: '/api/v5/trade/batch-orders',
    async start() {
      const venue = await OkxTestServer.start({ accounts: [{ ...keys, balances: { USDT: '10000' } }] });
      const gateway = new CcxtGateway({
        exchangeId: 'okx',
        ...keys,
        password: keys.passphrase,
        marketType: 'future',
        apiUrls: venue.origin,
        ...common,
      });
      return {
        gateway,
        skew: (ms) => (venue.clockOffsetMs = ms),
        paths: () => venue.requests.map((r) => r.path),
        close: () => venue.close(),
      };
    },
  },
];

for (const v of VENUES) {
  describe(`a host clock drifted past ${v.name}'s receive window`, () => {
    let s: Awaited<ReturnType<Venue['start']>>;
    beforeAll(async () => {
      s = await v.start();
      await s.gateway.loadMarkets();
    });
    afterAll(() => s.close());

    it('is recovered by one resync with the venue clock, for a read and then an order', async () => {
      s.skew(DRIFT_MS);
      const from = s.paths().length;
      const balances = await s.gateway.fetchBalances();
      expect(balances.USDT?.total).toBe('10000');
      // The first signed calls refused (Bybit sends two at once), the venue's time read once, those calls
      // sent again — and answered.
      const calls = s.paths().slice(from);
      const resync = calls.indexOf(v.timePath);
      expect(calls.filter((p) => p === v.timePath)).toHaveLength(1);
      expect(resync).toBeGreaterThan(0);
      expect(calls.slice(resync + 1, 2 * resync + 1)).toEqual(calls.slice(0, resync));
      expect(calls.at(-1)).toBe(v.balancePath);

      // The offset holds: an order goes through at the first attempt.
      const placedFrom = s.paths().length;
      const order = await s.gateway.createOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        amount: '0.01',
        price: '60000',
        clientOrderId: 'kSkewOrder000000000001',
      });
      expect(order.status).toBe('open');
      expect(
        s
          .paths()
          .slice(placedFrom)
          .filter((p) => p === v.timePath || p === v.orderPath),
      ).toEqual([v.orderPath]);
    });
  });
}
