import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '@kairos/core';
import { BinanceTestServer, DEFAULT_TEST_MARKETS } from '../fakes/binance-server';
import { manualOpenRequest } from '../support/engine';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';
import { registerUser, type Session } from '../support/users';

const KEYS = { apiKey: 'bnbFeesSpotKey0001', secret: 'bnb-fees-secret-0001' };

/**
 * Issue 19: a Binance account that pays its fees with BNB. Every fee is charged in BNB, a currency that is
 * neither the pair's base nor its quote; the trade's commission and PnL must still be what the account paid,
 * the fees booked at the BNB price read when each fill was stored.
 */
describe('fees paid in a third currency', () => {
  let venue: BinanceTestServer;
  let t: TradesApp;
  let alice: Session;

  beforeAll(async () => {
    venue = await BinanceTestServer.start({
      markets: {
        ...DEFAULT_TEST_MARKETS,
        BNBUSDT: {
          base: 'BNB',
          quote: 'USDT',
          price: '600.00',
          tickSize: '0.01',
          stepSize: '0.001',
          minQty: '0.001',
          minNotional: '5',
          levelQty: '100',
          levelTicks: 2,
        },
      },
      accounts: [{ ...KEYS, balances: { USDT: '10000', BNB: '5' }, spotBnbBurn: true }],
    });
    t = await startTradesApp({ venueUrls: venue.venueUrls() });
    alice = await registerUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await venue?.close();
  });

  it("books the BNB fees at the venue's BNB price: the trade's PnL is the account's cash flow", async () => {
    venue.setPrice('BTCUSDT', '65000');
    const res = await asUser(t.app, alice).post('/api/trading-accounts', {
      nickname: 'Binance BNB fees',
      exchange: 'binance',
      marketType: 'spot',
      apiKey: KEYS.apiKey,
      apiSecret: KEYS.secret,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const account = (await t.app.services.repos.accounts.findById(res.body.results.id))!;
    const gateway = await t.app.services.venues.gateways.forAccount(account);
    const before = { usdt: venue.balance(KEYS.apiKey, 'USDT'), bnb: venue.balance(KEYS.apiKey, 'BNB') };

    const { supervisor, reconciler } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(
      gateway,
      manualOpenRequest({
        userId: String(alice.user.id),
        accountId: account.id,
        clientOrderId: 'bnbfeeentry1',
        quantity: '0.02',
      }),
    );
    expect(opened.status).toBe('open');
    // The whole 0.02 BTC is held (no fee came out of it), so the ladder sells all of it.
    const ladder = (await t.app.services.repos.trades.ordersOfTrade(opened.id)).filter((o) =>
      o.role.startsWith('tp'),
    );
    expect(ladder.map((o) => o.amount)).toEqual(['0.01', '0.01']);

    venue.setPrice('BTCUSDT', '67500');
    await reconciler.reconcileAccount({ id: account.id }, { sweep: true });
    const trade = (await t.app.services.repos.trades.findById(opened.id))!;
    expect(trade.status).toBe('closed');

    const { rows: fills } = await t.db.pool.query(
      'SELECT fee, fee_currency, fee_rate, inferred FROM fills WHERE trade_id = $1',
      [opened.id],
    );
    expect(fills.length).toBeGreaterThanOrEqual(3);
    for (const f of fills) expect(f).toMatchObject({ fee_currency: 'BNB', fee_rate: '600', inferred: false });

    const after = { usdt: venue.balance(KEYS.apiKey, 'USDT'), bnb: venue.balance(KEYS.apiKey, 'BNB') };
    const bnbSpent = new Decimal(before.bnb.free).minus(after.bnb.free);
    expect(bnbSpent.gt(0)).toBe(true);
    expect(venue.balance(KEYS.apiKey, 'BTC').free).toMatch(/^0(\.0+)?$/);
    const cashFlow = new Decimal(after.usdt.free).minus(before.usdt.free).minus(bnbSpent.times(600));
    expect(new Decimal(trade.commission).minus(bnbSpent.times(600)).abs().lte('1e-8')).toBe(true);
    expect(
      new Decimal(trade.realisedPnl!).minus(cashFlow).abs().lte('1e-8'),
      `${trade.realisedPnl} vs ${cashFlow}`,
    ).toBe(true);
  });
});
