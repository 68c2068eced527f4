import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '@kairos/core';
import { BinanceTestServer } from '../fakes/binance-server';
import { manualOpenRequest } from '../support/engine';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';
import { registerUser, type Session } from '../support/users';

const KEYS = { apiKey: 'fundingTradeKey00000001', secret: 'funding-trade-secret' };

/**
 * Issue 19: a futures trade held across two funding times. What the position paid and received is booked on
 * the trade, so its PnL is what the futures wallet moved by: realised PnL − commissions + funding.
 */
describe('futures funding booked on the trade', () => {
  let venue: BinanceTestServer;
  let t: TradesApp;
  let alice: Session;

  beforeAll(async () => {
    venue = await BinanceTestServer.start({ accounts: [{ ...KEYS, futuresWallet: '10000' }] });
    t = await startTradesApp({ venueUrls: venue.venueUrls() });
    alice = await registerUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await venue?.close();
  });

  it("books both payments on the trade and its PnL equals the wallet's change", async () => {
    venue.setPrice('BTCUSDT', '65000');
    const res = await asUser(t.app, alice).post('/api/trading-accounts', {
      nickname: 'Binance futures',
      exchange: 'binance',
      marketType: 'future',
      apiKey: KEYS.apiKey,
      apiSecret: KEYS.secret,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const account = (await t.app.services.repos.accounts.findById(res.body.results.id))!;
    const gateway = await t.app.services.venues.gateways.forAccount(account);
    const walletBefore = new Decimal(venue.futuresWallet(KEYS.apiKey));

    const { supervisor, reconciler } = t.app.services.engine;
    const opened = await supervisor.managedLifecycle.open(
      gateway,
      manualOpenRequest({
        userId: String(alice.user.id),
        accountId: account.id,
        clientOrderId: 'fundingentry1',
        quantity: '0.02',
      }),
    );
    expect(opened.status).toBe('open');

    // Two settlements while the trade is held: the long pays 0.02 × 65000 × 0.0001 = 0.13, then receives
    // 0.02 × 65500 × 0.00005 = 0.0655 at a negative rate.
    await new Promise((r) => setTimeout(r, 5));
    expect(venue.chargeFunding('BTCUSDT', '0.0001')).toEqual({ [KEYS.apiKey]: '-0.13' });
    venue.setPrice('BTCUSDT', '65500');
    await new Promise((r) => setTimeout(r, 5));
    expect(venue.chargeFunding('BTCUSDT', '-0.00005')).toEqual({ [KEYS.apiKey]: '0.0655' });

    await reconciler.reconcileAccount({ id: account.id }, { sweep: true });
    expect((await t.app.services.repos.trades.findById(opened.id))!.funding).toBe('-0.0645');
    // Read again: nothing is booked twice.
    await reconciler.reconcileAccount({ id: account.id }, { sweep: true });
    const { rows } = await t.db.pool.query(
      'SELECT amount FROM funding_payments WHERE trade_id = $1 ORDER BY at',
      [opened.id],
    );
    expect(rows.map((r) => r.amount)).toEqual(['-0.13', '0.0655']);

    // The ladder fills at the venue; the sweep closes the trade.
    venue.setPrice('BTCUSDT', '67500');
    await reconciler.reconcileAccount({ id: account.id }, { sweep: true });
    const trade = (await t.app.services.repos.trades.findById(opened.id))!;
    expect(trade.status).toBe('closed');
    expect(venue.positionAmount(KEYS.apiKey, 'BTCUSDT')).toBe('0');

    const walletMoved = new Decimal(venue.futuresWallet(KEYS.apiKey)).minus(walletBefore);
    expect(
      new Decimal(trade.realisedPnl!).minus(walletMoved).abs().lte('1e-8'),
      `${trade.realisedPnl} vs ${walletMoved}`,
    ).toBe(true);
  });

  it('a payment made after the close is not the trade’s, and one just before it is read once more after', async () => {
    const trades = t.app.services.repos.trades;
    const [trade] = (await t.db.pool.query("SELECT id FROM trades WHERE status = 'closed'")).rows as {
      id: string;
    }[];
    const before = (await trades.findById(trade!.id))!;
    // The close was followed by a last read: nothing is awaited from this trade any more.
    expect(await trades.tradesAwaitingFunding(before.tradingAccountId)).toEqual([]);
    venue.chargeFunding('BTCUSDT', '0.0001'); // no position left: no payment at all
    await t.app.services.engine.reconciler.reconcileAccount({ id: before.tradingAccountId }, { sweep: true });
    expect((await trades.findById(trade!.id))!.funding).toBe(before.funding);
  });
});
