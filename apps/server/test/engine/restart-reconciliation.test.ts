import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { BinanceTestServer } from '../fakes/binance-server';
import { createPaperAccount } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, eventually, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * Nothing is lost across a restart: the server stops with take-profits resting on a venue that keeps
 * running, a level fills while it is down, and the next start finds the fill by reconciliation — the
 * trade updated, no order placed twice.
 */
const TRADER = { apiKey: 'restartKey00000000000001', secret: 'restart-secret' };

describe('restart with take-profits resting on the Binance-protocol venue', () => {
  let venue: BinanceTestServer;
  let first: TradesApp;
  let second: TradesApp | undefined;
  let alice: Session;
  let tradeId: string;
  const placedOrders = () =>
    venue.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/order').length;

  beforeAll(async () => {
    venue = await BinanceTestServer.start({ accounts: [{ ...TRADER, balances: { USDT: '10000' } }] });
    first = await startTradesApp({ venueUrls: venue.venueUrls() });
    alice = await registerUser(first.app);
  });
  afterAll(async () => {
    await (second ?? first).close();
    await venue.close();
  });

  it('opens a spot trade through ccxt: entry at market, ladder resting, sized after the fee in BTC', async () => {
    const api = asUser(first.app, alice);
    const account = await api.post('/api/trading-accounts', {
      nickname: 'Binance',
      exchange: 'binance',
      apiKey: TRADER.apiKey,
      apiSecret: TRADER.secret,
    });
    expect(account.status).toBe(201);
    const created = await api.post('/api/trades', {
      accountId: account.body.results.id,
      symbol: 'BTC/USDT',
      side: 'long',
      amount: '0.01',
      takeProfits: [
        { percent: 1, sizePercent: 50 },
        { percent: 2, sizePercent: 50 },
      ],
    });
    expect(created.status).toBe(201);
    const d = created.body.results;
    tradeId = d.trade.id;
    // Binance spot takes a buy's fee in the coin bought: 0.01 − 0.00001 BTC is what can be sold.
    expect(
      d.fills.map((f: { price: string; amount: string; fee: string; feeCurrency: string }) => [
        f.price,
        f.amount,
        f.fee,
        f.feeCurrency,
      ]),
    ).toEqual([['65001', '0.01', '0.00001', 'BTC']]);
    expect(d.trade.openQuantity).toBe('0.00999');
    expect(
      d.ladder.map((l: { status: string; price: string; amount: string }) => [l.status, l.price, l.amount]),
    ).toEqual([
      ['placed', '65651.01', '0.00499'],
      ['placed', '66301.02', '0.005'],
    ]);
    expect(placedOrders()).toBe(3);
  });

  it('finds the fill that happened while it was down, and places nothing twice', async () => {
    await first.close({ drop: false });
    venue.setPrice('BTCUSDT', '65700'); // TP1 fills at the venue while Kairos is stopped
    second = await startTradesApp({
      db: first.db,
      dataDir: first.dataDir,
      venueUrls: venue.venueUrls(),
      monitor: true,
    });
    const api = asUser(second.app, alice);
    const d = await eventually(
      async () => (await api.get(`/api/trades/${tradeId}`)).body.results,
      (x) => x.ladder[0].status === 'filled' && x.trade.stopMovedToBreakEven,
    );
    expect(d.ladder.map((l: { status: string }) => l.status)).toEqual(['filled', 'placed']);
    expect(
      d.fills.map((f: { role: string; price: string; amount: string }) => [f.role, f.price, f.amount]),
    ).toEqual([
      ['entry', '65001', '0.01'],
      ['tp1', '65651.01', '0.00499'],
    ]);
    expect(d.trade).toMatchObject({ status: 'open', openQuantity: '0.005' });
    expect(d.orders).toHaveLength(3);
    expect(placedOrders()).toBe(3);
  });

  it('follows the rest of the ladder by polling the venue and closes the trade', async () => {
    venue.setPrice('BTCUSDT', '66400');
    const api = asUser(second!.app, alice);
    const d = await eventually(
      async () => (await api.get(`/api/trades/${tradeId}`)).body.results,
      (x) => x.trade.status === 'closed',
    );
    expect(d.trade).toMatchObject({ closeReason: 'take profit', openQuantity: '0' });
    // Fees: 0.00001 BTC at 65001 on the entry, 0.1 % maker on each exit (Binance rounds up to 8 places).
    expect(d.trade.commission).toBe('1.30911364');
    expect(d.trade.pnl).toBe('8.43453626');
    expect(placedOrders()).toBe(3);
    expect(new Set(d.orders.map((o: { clientOrderId: string }) => o.clientOrderId)).size).toBe(3);
  });
});

describe('restart with take-profits resting on the paper venue', () => {
  it('replays the price path it missed and fills the level it crossed', async () => {
    const market = new ScriptedMarket(() => Date.now());
    const first = await startTradesApp({ paperVenueOptions: { market } });
    const alice = await registerUser(first.app);
    const account = await createPaperAccount(first.app, alice);
    const created = await asUser(first.app, alice).post('/api/trades', {
      accountId: account.id,
      symbol: 'BTC/USDT',
      side: 'long',
      amount: '0.01',
      takeProfits: [{ percent: 1, sizePercent: 100 }],
    });
    const tradeId = created.body.results.trade.id;
    await first.close({ drop: false });

    await new Promise((r) => setTimeout(r, 5));
    market.moveTo('65700'); // while down
    const second = await startTradesApp({
      db: first.db,
      dataDir: first.dataDir,
      paperVenueOptions: { market },
      monitor: true,
    });
    try {
      const d = await eventually(
        async () => (await asUser(second.app, alice).get(`/api/trades/${tradeId}`)).body.results,
        (x) => x.trade.status === 'closed',
      );
      expect(d.trade).toMatchObject({ closeReason: 'take profit', exitPrice: '65650' });
      expect(d.orders.map((o: { role: string; status: string }) => `${o.role}:${o.status}`)).toEqual([
        'entry:filled',
        'tp1:filled',
      ]);
    } finally {
      await second.close();
    }
  });
});
