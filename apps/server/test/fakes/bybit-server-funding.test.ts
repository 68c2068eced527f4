import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { Decimal } from '../../src/exchange/decimal';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BybitTestServer, bybitSignature } from './bybit-server';
import { futuresCcxtAt } from './ccxt-client';

const LONG = { apiKey: 'bybitFundingLong00001', secret: 'long-secret' };
const SHORT = { apiKey: 'bybitFundingShort0002', secret: 'short-secret' };
const FLAT = { apiKey: 'bybitFundingFlat00003', secret: 'flat-secret' };

type Row = Record<string, string>;

/** Linear funding on the Bybit protocol server: the unified wallet, executions, the transaction log — and ccxt. */
describe('Bybit v5 protocol test server: linear funding', () => {
  let venue: BybitTestServer;

  beforeAll(async () => {
    venue = await BybitTestServer.start({
      accounts: [
        { ...LONG, wallet: { USDT: '10000' } },
        { ...SHORT, wallet: { USDT: '10000' } },
        { ...FLAT, wallet: { USDT: '10000' } },
      ],
    });
  });
  afterAll(() => venue.close());

  async function signed(
    keys: { apiKey: string; secret: string },
    path: string,
    params: Record<string, string>,
  ) {
    const timestamp = String(Date.now());
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${venue.origin}${path}?${query}`, {
      headers: {
        'X-BAPI-API-KEY': keys.apiKey,
        'X-BAPI-TIMESTAMP': timestamp,
        'X-BAPI-RECV-WINDOW': '5000',
        'X-BAPI-SIGN': bybitSignature(keys.secret, timestamp, keys.apiKey, '5000', query),
      },
    });
    const body = (await response.json()) as {
      retCode: number;
      result: { list: Row[]; nextPageCursor?: string };
    };
    return { status: response.status, retCode: body.retCode, result: body.result };
  }

  const position = async (keys: { apiKey: string; secret: string }) =>
    (await signed(keys, '/v5/position/list', { category: 'linear', symbol: 'BTCUSDT' })).result.list[0]!;

  it('charges every holder from the unified USDT wallet at the mark price, cumRealisedPnl untouched', async () => {
    // A long entered through Kairos' gateway, a short through ccxt itself.
    const gateway = new CcxtGateway({
      exchangeId: 'bybit',
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
    await futuresCcxtAt('bybit', venue.origin, SHORT).createOrder('BTC/USDT:USDT', 'market', 'sell', 0.05);
    expect([venue.positionSize(LONG.apiKey, 'BTCUSDT'), venue.positionSize(SHORT.apiKey, 'BTCUSDT')]).toEqual(
      ['0.1', '-0.05'],
    );
    const wallets = () => [LONG, SHORT, FLAT].map((keys) => Number(venue.coin(keys.apiKey, 'USDT').wallet));
    const before = wallets();
    const realisedBefore = [(await position(LONG)).cumRealisedPnl, (await position(SHORT)).cumRealisedPnl];

    // Mark 65000: the long pays 0.1 × 65000 × 0.0001, the short receives 0.05 × 65000 × 0.0001.
    const first = Date.now() + 1;
    expect(venue.chargeFunding('BTCUSDT', '0.0001', first)).toEqual({
      [LONG.apiKey]: '-0.65',
      [SHORT.apiKey]: '0.325',
    });
    venue.setPrice('BTCUSDT', '66000');
    await new Promise((resolve) => setTimeout(resolve, 5));
    // A negative rate at mark 66000: shorts pay, longs receive.
    expect(venue.chargeFunding('BTCUSDT', '-0.00005')).toEqual({
      [LONG.apiKey]: '0.33',
      [SHORT.apiKey]: '-0.165',
    });

    const after = wallets();
    expect(after[0]! - before[0]!).toBeCloseTo(-0.32, 10);
    expect(after[1]! - before[1]!).toBeCloseTo(0.16, 10);
    expect(after[2]).toBe(before[2]);
    expect([(await position(LONG)).cumRealisedPnl, (await position(SHORT)).cumRealisedPnl]).toEqual(
      realisedBefore,
    );

    // The transaction log's SETTLEMENT rows, newest first, as Bybit documents them.
    const settlements = await signed(LONG, '/v5/account/transaction-log', {
      accountType: 'UNIFIED',
      category: 'linear',
      currency: 'USDT',
      type: 'SETTLEMENT',
    });
    expect(settlements.retCode).toBe(0);
    expect(settlements.result.list).toEqual([
      expect.objectContaining({
        symbol: 'BTCUSDT',
        side: 'Buy',
        funding: '0.33',
        change: '0.33',
        fee: '0',
        cashFlow: '0',
        feeRate: '-0.00005',
        qty: '0.1',
        size: '0.1',
        tradePrice: '66000',
        cashBalance: venue.coin(LONG.apiKey, 'USDT').wallet,
      }),
      expect.objectContaining({
        type: 'SETTLEMENT',
        funding: '-0.65',
        change: '-0.65',
        feeRate: '0.0001',
        tradePrice: '65000',
        transactionTime: String(first),
        cashBalance: new Decimal(venue.coin(LONG.apiKey, 'USDT').wallet).minus('0.33').toFixed(),
      }),
    ]);
    const short = await signed(SHORT, '/v5/account/transaction-log', { type: 'SETTLEMENT' });
    expect(short.result.list.map((row) => [row.side, row.size, row.feeRate, row.funding])).toEqual([
      ['Sell', '-0.05', '0.00005', '-0.165'],
      ['Sell', '-0.05', '-0.0001', '0.325'],
    ]);
  });

  it("fetchFundingHistory through ccxt returns both payments in Bybit's sign (execFee: > 0 paid), matching the wallet", async () => {
    for (const [keys, paid] of [
      [LONG, [0.65, -0.33]],
      [SHORT, [-0.325, 0.165]],
    ] as const) {
      const exchange = futuresCcxtAt('bybit', venue.origin, keys);
      const history = await exchange.fetchFundingHistory('BTC/USDT:USDT');
      expect(history.map((entry) => [entry.symbol, entry.code, entry.amount])).toEqual([
        ['BTC/USDT:USDT', 'USDT', paid[0]],
        ['BTC/USDT:USDT', 'USDT', paid[1]],
      ]);
      expect(history[1]!.timestamp!).toBeGreaterThan(history[0]!.timestamp!);
      // What ccxt sent: the execution list, funding only.
      const request = venue.requests.at(-1)!;
      expect(request.path).toBe('/v5/execution/list');
      expect(Object.fromEntries(new URLSearchParams(request.query))).toMatchObject({
        category: 'linear',
        symbol: 'BTCUSDT',
        execType: 'Funding',
      });
      // The wallet moved by what ccxt reports, the other way round.
      const settlements = await signed(keys, '/v5/account/transaction-log', { type: 'SETTLEMENT' });
      const funded = settlements.result.list.reduce((total, row) => total + Number(row.funding), 0);
      expect(funded).toBeCloseTo(-(paid[0] + paid[1]), 10);
    }
    expect(await futuresCcxtAt('bybit', venue.origin, FLAT).fetchFundingHistory('BTC/USDT:USDT')).toEqual([]);
  });

  it('keeps funding out of the trade list (ccxt asks for execType=Trade) but lists it without execType', async () => {
    const trades = await futuresCcxtAt('bybit', venue.origin, LONG).fetchMyTrades('BTC/USDT:USDT');
    expect(trades.map((trade) => [trade.side, trade.amount])).toEqual([['buy', 0.1]]);
    const all = await signed(LONG, '/v5/execution/list', { category: 'linear' });
    expect(all.result.list.map((row) => row.execType)).toEqual(['Funding', 'Funding', 'Trade']);
    expect(all.result.list[0]).toMatchObject({
      side: 'Buy',
      orderType: 'UNKNOWN',
      execQty: '0.1',
      execPrice: '66000',
      markPrice: '66000',
      execValue: '6600',
      execFee: '-0.33',
      feeRate: '-0.00005',
      closedSize: '0',
    });
  });

  it('fetchFundingRate reads the tickers: the rate last charged and the next 8-hour funding time', async () => {
    const rate = await futuresCcxtAt('bybit', venue.origin, FLAT).fetchFundingRate('BTC/USDT:USDT');
    expect(rate).toMatchObject({ symbol: 'BTC/USDT:USDT', markPrice: 66000, fundingRate: -0.00005 });
    expect(rate.fundingTimestamp! % (8 * 3_600_000)).toBe(0);
    expect(rate.fundingTimestamp!).toBeGreaterThan(Date.now() - 1);
  });

  it('the transaction log also lists every linear fill (TRADE), and pages with nextPageCursor', async () => {
    const all = await signed(SHORT, '/v5/account/transaction-log', { category: 'linear' });
    expect(
      all.result.list.map((row) => [row.type, row.side, row.qty, row.size, row.cashFlow, row.fee]),
    ).toEqual([
      ['SETTLEMENT', 'Sell', '0.05', '-0.05', '0', '0'],
      ['SETTLEMENT', 'Sell', '0.05', '-0.05', '0', '0'],
      ['TRADE', 'Sell', '0.05', '-0.05', '0', '1.7874725'], // 0.05 × 64999 × 0.055 %
    ]);
    const first = await signed(SHORT, '/v5/account/transaction-log', { limit: '2' });
    expect(first.result.list).toHaveLength(2);
    expect(first.result.nextPageCursor).not.toBe('');
    const next = await signed(SHORT, '/v5/account/transaction-log', {
      limit: '2',
      cursor: first.result.nextPageCursor!,
    });
    expect([...first.result.list, ...next.result.list]).toEqual(all.result.list);
    expect(next.result.nextPageCursor).toBe('');
  });
});
