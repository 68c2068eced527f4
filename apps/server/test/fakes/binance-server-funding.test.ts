import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BinanceTestServer, binanceSignature } from './binance-server';
import { futuresCcxtAt } from './ccxt-client';

const LONG = { apiKey: 'fundingLong0000000000001', secret: 'long-secret' };
const SHORT = { apiKey: 'fundingShort000000000002', secret: 'short-secret' };
const FLAT = { apiKey: 'fundingFlat0000000000003', secret: 'flat-secret' };

/** USDⓈ-M funding on the Binance protocol server: the wallet, the income history, premiumIndex — and ccxt. */
describe('Binance protocol test server: USDⓈ-M funding', () => {
  let venue: BinanceTestServer;

  beforeAll(async () => {
    venue = await BinanceTestServer.start({
      accounts: [
        { ...LONG, futuresWallet: '10000' },
        { ...SHORT, futuresWallet: '10000' },
        { ...FLAT, futuresWallet: '10000' },
      ],
    });
  });
  afterAll(() => venue.close());

  async function signed(
    keys: { apiKey: string; secret: string },
    path: string,
    params: Record<string, string>,
  ) {
    const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
    const response = await fetch(
      `${venue.origin}${path}?${query}&signature=${binanceSignature(keys.secret, query)}`,
      { headers: { 'X-MBX-APIKEY': keys.apiKey } },
    );
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it('charges every holder: a long pays a positive rate, a short receives it, at the mark price; then the other way', async () => {
    // A long entered through Kairos' gateway, a short through ccxt itself.
    const gateway = new CcxtGateway({
      exchangeId: 'binanceusdm',
      ...LONG,
      marketType: 'future',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
      marketCache: new MarketCache(),
      retry: { retries: 0, baseMs: 10, maxMs: 100 },
    });
    await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'funding-long',
    });
    const short = futuresCcxtAt('binanceusdm', venue.origin, SHORT);
    await short.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.05);
    expect(venue.positionAmount(LONG.apiKey, 'BTCUSDT')).toBe('0.1');
    expect(venue.positionAmount(SHORT.apiKey, 'BTCUSDT')).toBe('-0.05');
    const before = {
      long: venue.futuresWallet(LONG.apiKey),
      short: venue.futuresWallet(SHORT.apiKey),
      flat: venue.futuresWallet(FLAT.apiKey),
    };

    // Mark 65000: the long pays 0.1 × 65000 × 0.0001, the short receives 0.05 × 65000 × 0.0001.
    const first = Date.now() + 1;
    expect(venue.chargeFunding('BTCUSDT', '0.0001', first)).toEqual({
      [LONG.apiKey]: '-0.65',
      [SHORT.apiKey]: '0.325',
    });
    venue.setPrice('BTCUSDT', '66000');
    // A negative rate at mark 66000: shorts pay, longs receive.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(venue.chargeFunding('BTCUSDT', '-0.00005')).toEqual({
      [LONG.apiKey]: '0.33',
      [SHORT.apiKey]: '-0.165',
    });

    const moved = (now: string, then: string) => Number(now) - Number(then);
    expect(moved(venue.futuresWallet(LONG.apiKey), before.long)).toBeCloseTo(-0.32, 10);
    expect(moved(venue.futuresWallet(SHORT.apiKey), before.short)).toBeCloseTo(0.16, 10);
    expect(venue.futuresWallet(FLAT.apiKey)).toBe(before.flat);

    const funding = await signed(LONG, '/fapi/v1/income', { symbol: 'BTCUSDT', incomeType: 'FUNDING_FEE' });
    expect(funding).toEqual({
      status: 200,
      body: [
        {
          symbol: 'BTCUSDT',
          incomeType: 'FUNDING_FEE',
          income: '-0.65000000',
          asset: 'USDT',
          info: 'FUNDING_FEE',
          time: first,
          tranId: expect.any(Number) as number,
          tradeId: '',
        },
        expect.objectContaining({ income: '0.33000000', incomeType: 'FUNDING_FEE' }),
      ],
    });
  });

  it('fetchFundingHistory through ccxt returns both payments with their signs, and the wallet moved by their sum', async () => {
    for (const [keys, amounts] of [
      [LONG, [-0.65, 0.33]],
      [SHORT, [0.325, -0.165]],
    ] as const) {
      const exchange: Exchange = futuresCcxtAt('binanceusdm', venue.origin, keys);
      const history = await exchange.fetchFundingHistory('BTC/USDT:USDT');
      expect(history.map((entry) => [entry.symbol, entry.code, entry.amount])).toEqual([
        ['BTC/USDT:USDT', 'USDT', amounts[0]],
        ['BTC/USDT:USDT', 'USDT', amounts[1]],
      ]);
      expect(history[1]!.timestamp!).toBeGreaterThan(history[0]!.timestamp!);
      // What ccxt sent: the income endpoint, funding only, this symbol.
      const request = venue.requests.at(-1)!;
      expect(request.path).toBe('/fapi/v1/income');
      expect(new URLSearchParams(request.query).get('incomeType')).toBe('FUNDING_FEE');
      expect(new URLSearchParams(request.query).get('symbol')).toBe('BTCUSDT');
      // `since` is sent as startTime (inclusive).
      const since = await exchange.fetchFundingHistory('BTC/USDT:USDT', history[1]!.timestamp);
      expect(since.map((entry) => entry.amount)).toEqual([amounts[1]]);
    }
    const flat = await futuresCcxtAt('binanceusdm', venue.origin, FLAT).fetchFundingHistory('BTC/USDT:USDT');
    expect(flat).toEqual([]);
  });

  it('fetchFundingRate reads premiumIndex: the mark price, the last rate charged, the next 8-hour funding time', async () => {
    const rate = await futuresCcxtAt('binanceusdm', venue.origin, FLAT).fetchFundingRate('BTC/USDT:USDT');
    expect(rate).toMatchObject({ symbol: 'BTC/USDT:USDT', markPrice: 66000, fundingRate: -0.00005 });
    expect(rate.fundingTimestamp! % (8 * 3_600_000)).toBe(0);
    expect(rate.fundingTimestamp! - Date.now()).toBeGreaterThan(0);
    expect(rate.fundingTimestamp! - Date.now()).toBeLessThanOrEqual(8 * 3_600_000);
    // Never charged: Binance's interest-rate-only 0.01 %; without a symbol, every market.
    const all = (await (await fetch(`${venue.origin}/fapi/v1/premiumIndex`)).json()) as Array<{
      symbol: string;
      lastFundingRate: string;
    }>;
    expect(all.map((entry) => [entry.symbol, entry.lastFundingRate])).toEqual([
      ['BTCUSDT', '-0.00005000'],
      ['ETHUSDT', '0.00010000'],
      ['SOLUSDT', '0.00010000'],
    ]);
  });

  it("lists every income type without incomeType: each fill's commission, its realised PnL, the funding", async () => {
    const closing = futuresCcxtAt('binanceusdm', venue.origin, SHORT);
    // Buys back 0.05 at 66001 (entered at 64999): a loss of 0.05 × 1002.
    await closing.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.05, undefined, { reduceOnly: true });
    const all = await signed(SHORT, '/fapi/v1/income', { symbol: 'BTCUSDT' });
    const rows = all.body as Array<{ incomeType: string; income: string; tradeId: string }>;
    expect(rows.map((row) => [row.incomeType, row.income])).toEqual([
      ['COMMISSION', '-1.29998000'], // 0.05 × 64999 × 0.04 %
      ['FUNDING_FEE', '0.32500000'],
      ['FUNDING_FEE', '-0.16500000'],
      ['REALIZED_PNL', '-50.10000000'],
      ['COMMISSION', '-1.32002000'], // 0.05 × 66001 × 0.04 %
    ]);
    expect(rows[3]!.tradeId).toBe(rows[4]!.tradeId);
    expect(rows[3]!.tradeId).not.toBe('');
    // Paged from startTime: `limit` rows from there, `page` for the next ones.
    const firstPage = await signed(SHORT, '/fapi/v1/income', { startTime: '0', limit: '2' });
    const secondPage = await signed(SHORT, '/fapi/v1/income', { startTime: '0', limit: '2', page: '2' });
    expect([...(firstPage.body as unknown[]), ...(secondPage.body as unknown[])]).toEqual(rows.slice(0, 4));
  });
});
