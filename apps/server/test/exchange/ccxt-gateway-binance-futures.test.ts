import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtGateway } from '../../src/exchange/ccxt-gateway';
import { InvalidOrderError, UnsupportedOperationError } from '../../src/exchange/errors';
import { MarketCache } from '../../src/exchange/market-cache';
import { VenueThrottleRegistry } from '../../src/exchange/venue-throttle';
import { BinanceTestServer } from '../fakes/binance-server';

const TRADER = { apiKey: 'futuresKey00000000000001', secret: 'futures-secret' };

describe('CcxtGateway (binance USDⓈ-M futures) against the Binance protocol server', () => {
  let venue: BinanceTestServer;
  let gateway: CcxtGateway;

  beforeAll(async () => {
    venue = await BinanceTestServer.start({ accounts: [{ ...TRADER, futuresWallet: '10000' }] });
    gateway = new CcxtGateway({
      exchangeId: 'binance',
      ...TRADER,
      marketType: 'future',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
      marketCache: new MarketCache(),
      retry: { retries: 0, baseMs: 10, maxMs: 100 },
    });
  });
  afterAll(() => venue.close());

  it('loads only the USDⓈ-M perpetuals, under Kairos symbols', async () => {
    const markets = await gateway.loadMarkets();
    // The markets, and the venue's clock (signed calls carry its time).
    expect(venue.requests.map((request) => request.path)).toEqual(['/fapi/v1/exchangeInfo', '/fapi/v1/time']);
    expect(markets.find((market) => market.symbol === 'BTC/USDT')).toMatchObject({
      venueSymbol: 'BTC/USDT:USDT',
      type: 'swap',
      amountStep: '0.00001',
      priceTick: '0.01',
      minNotional: '5',
    });
  });

  it('sets leverage, opens a long, reports the position and closes it reduce-only', async () => {
    await gateway.setLeverage('BTC/USDT', 10);
    expect((await gateway.fetchBalances())['USDT']).toMatchObject({ free: '10000', total: '10000' });

    const open = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      amount: '0.1',
      clientOrderId: 'fut-open',
    });
    expect(open).toMatchObject({
      status: 'filled',
      filled: '0.1',
      average: '65001',
      clientOrderId: 'fut-open',
    });

    const [position] = await gateway.fetchPositions();
    expect(position).toMatchObject({ symbol: 'BTC/USDT', side: 'long', amount: '0.1', entryPrice: '65001' });

    await expect(
      gateway.createOrder({
        symbol: 'BTC/USDT',
        side: 'sell',
        type: 'market',
        amount: '0.2',
        reduceOnly: true,
        clientOrderId: 'fut-too-much',
      }),
    ).rejects.toBeInstanceOf(InvalidOrderError);

    const takeProfit = await gateway.createOrder({
      symbol: 'BTC/USDT',
      side: 'sell',
      type: 'limit',
      amount: '0.1',
      price: '66000',
      reduceOnly: true,
      clientOrderId: 'fut-tp1',
    });
    expect(takeProfit).toMatchObject({ status: 'open', reduceOnly: true });
    venue.setPrice('BTCUSDT', '66000');
    expect(await gateway.fetchOrderByClientId('fut-tp1', 'BTC/USDT')).toMatchObject({ status: 'filled' });
    expect(await gateway.fetchPositions()).toEqual([]);

    const fills = await gateway.fetchMyTrades('BTC/USDT');
    expect(fills.map((fill) => [fill.side, fill.price, fill.amount, fill.feeCurrency])).toEqual([
      ['buy', '65001', '0.1', 'USDT'],
      ['sell', '66000', '0.1', 'USDT'],
    ]);
    // +99.9 realised, fees 0.04 % taker on 6500.1 and 0.02 % maker on 6600.
    expect(venue.futuresWallet(TRADER.apiKey)).toBe('10095.97996');
    expect(new Set(venue.requests.map((r) => `${r.method} ${r.path}`))).toEqual(
      new Set([
        'GET /fapi/v1/exchangeInfo',
        'GET /fapi/v1/time',
        'POST /fapi/v1/leverage',
        'GET /fapi/v3/account',
        'POST /fapi/v1/order',
        'GET /fapi/v1/leverageBracket',
        'GET /fapi/v3/positionRisk',
        'GET /fapi/v1/order',
        'GET /fapi/v1/userTrades',
      ]),
    );
  });

  it('refuses leverage on spot accounts', async () => {
    const spot = new CcxtGateway({
      exchangeId: 'binance',
      ...TRADER,
      marketType: 'spot',
      apiUrls: venue.origin,
      throttle: new VenueThrottleRegistry(),
    });
    await expect(spot.setLeverage('BTC/USDT', 5)).rejects.toBeInstanceOf(UnsupportedOperationError);
    expect(await spot.fetchPositions()).toEqual([]);
  });
});
