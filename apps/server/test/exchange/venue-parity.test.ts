import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { ScriptedMarket } from '../fakes/scripted-market';
import { BinanceTestServer } from '../fakes/binance-server';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, eventually, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * One trade scenario run twice by the same user — through real ccxt against the Binance-protocol
 * server (USDⓈ-M futures) and on the paper venue with a scripted market priced like that server
 * (levels of 0.5 BTC one dollar apart around 65000, 0.02 % maker / 0.04 % taker) — gives the same
 * fills, fees and PnL.
 */
const TRADER = { apiKey: 'parityKey000000000000001', secret: 'parity-secret' };

function binanceLikeBook(market: ScriptedMarket) {
  const level = (price: number) => [new Decimal(price), new Decimal('0.5')] as [Decimal, Decimal];
  market.book = {
    asks: Array.from({ length: 20 }, (_, i) => level(65001 + i)),
    bids: Array.from({ length: 20 }, (_, i) => level(64999 - i)),
  };
}

let venue: BinanceTestServer;
let t: TradesApp;
let alice: Session;
let api: ReturnType<typeof asUser>;
const market = new ScriptedMarket(() => Date.now());

beforeAll(async () => {
  binanceLikeBook(market);
  venue = await BinanceTestServer.start({ accounts: [{ ...TRADER, futuresWallet: '10000' }] });
  t = await startTradesApp({
    monitor: true,
    venueUrls: venue.venueUrls(),
    paperVenueOptions: { market, fees: { maker: '0.0002', taker: '0.0004' } },
  });
  alice = await registerUser(t.app);
  api = asUser(t.app, alice);
});
afterAll(async () => {
  await t.close();
  await venue.close();
});

const scenario = (accountId: string) =>
  api.post('/api/trades', {
    accountId,
    symbol: 'BTC/USDT',
    side: 'long',
    amount: '0.01',
    takeProfits: [
      { percent: 1, sizePercent: 50 },
      { percent: 2, sizePercent: 50 },
    ],
  });

type Fill = { role: string; side: string; price: string; amount: string; fee: string; feeCurrency: string };
const comparable = (d: { fills: Fill[]; trade: Record<string, unknown> }) => ({
  fills: d.fills.map((f) => [f.role, f.side, f.price, f.amount, f.fee, f.feeCurrency]),
  figures: Object.fromEntries(
    ['status', 'closeReason', 'quantity', 'entryPrice', 'exitPrice', 'commission', 'pnl', 'pnlPercent'].map(
      (k) => [k, d.trade[k]],
    ),
  ),
});

describe('the same trade through ccxt → Binance and on the paper venue', () => {
  it('gives the same fills, fees and PnL', async () => {
    const binance = await api.post('/api/trading-accounts', {
      nickname: 'Binance futures',
      exchange: 'binance',
      marketType: 'future',
      apiKey: TRADER.apiKey,
      apiSecret: TRADER.secret,
    });
    expect(binance.status).toBe(201);
    const paper = await createPaperAccount(t.app, alice, { marketType: 'future' });

    const viaCcxt = await scenario(binance.body.results.id);
    const onPaper = await scenario(paper.id);
    expect(viaCcxt.status).toBe(201);
    expect(onPaper.status).toBe(201);
    expect(comparable(onPaper.body.results)).toEqual(comparable(viaCcxt.body.results));
    expect(
      onPaper.body.results.ladder.map((l: { price: string; amount: string }) => [l.price, l.amount]),
    ).toEqual([
      ['65651.01', '0.005'],
      ['66301.02', '0.005'],
    ]);
    expect(
      viaCcxt.body.results.orders.every(
        (o: { role: string; reduceOnly: boolean }) => o.role === 'entry' || o.reduceOnly,
      ),
    ).toBe(true);

    venue.setPrice('BTCUSDT', '66400');
    market.moveTo('66400');
    const closed = (id: string) =>
      eventually(
        async () => (await api.get(`/api/trades/${id}`)).body.results,
        (x) => x.trade.status === 'closed',
      );
    const [ccxtDone, paperDone] = await Promise.all([
      closed(viaCcxt.body.results.trade.id),
      closed(onPaper.body.results.trade.id),
    ]);
    expect(comparable(paperDone)).toEqual(comparable(ccxtDone));
    expect(comparable(ccxtDone)).toEqual({
      fills: [
        ['entry', 'buy', '65001', '0.01', '0.260004', 'USDT'],
        ['tp1', 'sell', '65651.01', '0.005', '0.06565101', 'USDT'],
        ['tp2', 'sell', '66301.02', '0.005', '0.06630102', 'USDT'],
      ],
      figures: {
        status: 'closed',
        closeReason: 'take profit',
        quantity: '0.01',
        entryPrice: '65001',
        exitPrice: '65976.015',
        commission: '0.39195603',
        // (65976.015 − 65001) × 0.01 − fees
        pnl: '9.35819397',
        pnlPercent: expect.any(String),
      },
    });
  });
});
