import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { Decimal } from '../../src/exchange/decimal';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { futuresCcxtAt } from './ccxt-client';
import { OkxTestServer, okxSignature } from './okx-server';

type Keys = { apiKey: string; secret: string; passphrase: string };
const LONG: Keys = { apiKey: 'okxFundingLong01', secret: 'long-secret', passphrase: 'Long-pass-1' };
const SHORT: Keys = { apiKey: 'okxFundingShort02', secret: 'short-secret', passphrase: 'Short-pass-2' };
const HEDGE: Keys = { apiKey: 'okxFundingHedge03', secret: 'hedge-secret', passphrase: 'Hedge-pass-3' };
const FLAT: Keys = { apiKey: 'okxFundingFlat04', secret: 'flat-secret', passphrase: 'Flat-pass-4' };

/** Swap funding on the OKX protocol server: the cash balance, bills, the position's fundingFee — and ccxt. */
describe('OKX protocol test server: swap funding', () => {
  let venue: OkxTestServer;

  beforeAll(async () => {
    venue = await OkxTestServer.start({
      accounts: [
        { ...LONG, balances: { USDT: '10000' } },
        { ...SHORT, balances: { USDT: '10000' } },
        { ...HEDGE, balances: { USDT: '10000' }, posMode: 'long_short_mode' },
        { ...FLAT, balances: { USDT: '10000' } },
      ],
    });
  });
  afterAll(() => venue.close());

  async function signed(keys: Keys, requestPath: string) {
    const timestamp = new Date().toISOString();
    const response = await fetch(`${venue.origin}${requestPath}`, {
      headers: {
        'OK-ACCESS-KEY': keys.apiKey,
        'OK-ACCESS-PASSPHRASE': keys.passphrase,
        'OK-ACCESS-TIMESTAMP': timestamp,
        'OK-ACCESS-SIGN': okxSignature(keys.secret, timestamp, 'GET', requestPath),
      },
    });
    return (await response.json()) as { code: string; data: Record<string, string>[] };
  }

  const okx = (keys: Keys) =>
    futuresCcxtAt('okx', venue.origin, {
      apiKey: keys.apiKey,
      secret: keys.secret,
      password: keys.passphrase,
    });

  it('charges every position from the USDT cash balance at the mark price, per leg in long/short mode', async () => {
    // A long entered through Kairos' gateway (0.1 BTC = 10 contracts), a short through ccxt (5 contracts).
    const gateway = new CcxtGateway({
      exchangeId: 'okx',
      apiKey: LONG.apiKey,
      secret: LONG.secret,
      password: LONG.passphrase,
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
      clientOrderId: 'fundinglong1',
    });
    await okx(SHORT).createOrder('BTC/USDT:USDT', 'market', 'sell', 5);
    // Both legs of a long/short-mode account: 2 contracts long, 1 short.
    for (const [side, posSide, sz] of [
      ['buy', 'long', '2'],
      ['sell', 'short', '1'],
    ]) {
      const answer = venue.placeAtVenue(HEDGE.apiKey, {
        instId: 'BTC-USDT-SWAP',
        tdMode: 'cross',
        side,
        posSide,
        ordType: 'market',
        sz,
      });
      expect(answer.sCode).toBe('0');
    }
    const accounts = [LONG, SHORT, HEDGE, FLAT];
    const cash = () => accounts.map((keys) => new Decimal(venue.cashBalance(keys.apiKey, 'USDT')));
    const before = cash();

    // Mark 65000, 0.01 BTC a contract: the long pays 10 × 0.01 × 65000 × 0.0001; the hedger 0.13 − 0.065.
    const first = Date.now() + 1;
    expect(venue.chargeFunding('BTC-USDT-SWAP', '0.0001', first)).toEqual({
      [LONG.apiKey]: '-0.65',
      [SHORT.apiKey]: '0.325',
      [HEDGE.apiKey]: '-0.065',
    });
    venue.setPrice('BTC-USDT', '66000');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(venue.chargeFunding('BTC-USDT-SWAP', '-0.00005')).toEqual({
      [LONG.apiKey]: '0.33',
      [SHORT.apiKey]: '-0.165',
      [HEDGE.apiKey]: '0.033',
    });
    expect(cash().map((after, i) => after.minus(before[i]!).toFixed())).toEqual([
      '-0.32',
      '0.16',
      '-0.032',
      '0',
    ]);

    // Funding bills, newest first, as OKX documents them: type 8, subType 174 income / 173 expense.
    const bills = await signed(LONG, '/api/v5/account/bills?instType=SWAP&type=8');
    expect(bills.code).toBe('0');
    expect(bills.data).toEqual([
      expect.objectContaining({
        instType: 'SWAP',
        instId: 'BTC-USDT-SWAP',
        ccy: 'USDT',
        type: '8',
        subType: '174',
        balChg: '0.33',
        pnl: '0.33',
        fee: '0',
        sz: '10',
        px: '66000',
        bal: venue.cashBalance(LONG.apiKey, 'USDT'),
        mgnMode: 'cross',
        ordId: '',
      }),
      expect.objectContaining({ subType: '173', balChg: '-0.65', px: '65000', ts: String(first) }),
    ]);
    const hedge = await signed(HEDGE, '/api/v5/account/bills?type=8');
    expect(hedge.data.map((bill) => [bill.subType, bill.sz, bill.balChg])).toEqual([
      ['173', '1', '-0.033'],
      ['174', '2', '0.066'],
      ['174', '1', '0.065'],
      ['173', '2', '-0.13'],
    ]);

    // The position carries its funding (and counts it in realizedPnl = pnl + fee + fundingFee).
    const [position] = (await signed(LONG, '/api/v5/account/positions?instId=BTC-USDT-SWAP')).data;
    expect(position).toMatchObject({ fundingFee: '-0.32', pnl: '0', fee: '-3.25005' }); // 6500.1 × 0.05 %
    expect(position!.realizedPnl).toBe('-3.57005');
  });

  it('fetchFundingHistory through ccxt returns both payments with their signs, and the balance moved by their sum', async () => {
    for (const [keys, amounts] of [
      [LONG, [-0.65, 0.33]],
      [SHORT, [0.325, -0.165]],
    ] as const) {
      const history = await okx(keys).fetchFundingHistory('BTC/USDT:USDT');
      expect(history.map((entry) => [entry.symbol, entry.code, entry.amount])).toEqual([
        ['BTC/USDT:USDT', 'USDT', amounts[0]],
        ['BTC/USDT:USDT', 'USDT', amounts[1]],
      ]);
      expect(history[1]!.timestamp!).toBeGreaterThan(history[0]!.timestamp!);
      // What ccxt sent: the 3-month bills, funding fees of linear swaps in USDT.
      const request = venue.requests.at(-1)!;
      expect(request.path).toBe('/api/v5/account/bills-archive');
      expect(Object.fromEntries(new URLSearchParams(request.query))).toMatchObject({
        type: '8',
        instType: 'SWAP',
        ctType: 'linear',
        ccy: 'USDT',
      });
      // Their sum is what the position's fundingFee holds (and what the cash balance moved by, above).
      const [position] = (await signed(keys, '/api/v5/account/positions?instId=BTC-USDT-SWAP')).data;
      expect(new Decimal(amounts[0]).plus(amounts[1]).toFixed()).toBe(position!.fundingFee);
    }
    expect(await okx(FLAT).fetchFundingHistory('BTC/USDT:USDT')).toEqual([]);
  });

  it('fetchFundingRate reads public/funding-rate: the rate last charged, the next 8-hour settlement', async () => {
    const rate = await okx(FLAT).fetchFundingRate('BTC/USDT:USDT');
    expect(rate).toMatchObject({ symbol: 'BTC/USDT:USDT', fundingRate: -0.00005, interval: '8h' });
    expect(rate.fundingTimestamp! % (8 * 3_600_000)).toBe(0);
    expect(rate.fundingTimestamp!).toBeGreaterThan(Date.now() - 1);
    const spot = await fetch(`${venue.origin}/api/v5/public/funding-rate?instId=BTC-USDT`);
    expect(((await spot.json()) as { code: string }).code).toBe('51000');
  });

  it('the bills also list every swap fill (type 2), paged by billId like the fills', async () => {
    const all = await signed(SHORT, '/api/v5/account/bills');
    expect(all.data.map((bill) => [bill.type, bill.subType, bill.balChg])).toEqual([
      ['8', '173', '-0.165'],
      ['8', '174', '0.325'],
      ['2', '2', '-1.624975'], // 5 × 0.01 × 64999 × 0.05 % taker fee
    ]);
    const fill = (await signed(SHORT, '/api/v5/trade/fills?instType=SWAP')).data[0]!;
    expect(all.data[2]).toMatchObject({
      billId: fill.billId,
      ordId: fill.ordId,
      tradeId: fill.tradeId,
      sz: '5',
    });
    const older = await signed(SHORT, `/api/v5/account/bills?after=${all.data[0]!.billId}&limit=1`);
    expect(older.data).toEqual([all.data[1]]);
    expect((await signed(SHORT, '/api/v5/account/bills?instType=SPOT')).data).toEqual([]);
  });
});
