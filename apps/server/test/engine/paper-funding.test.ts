import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '@kairos/core';
import { nextFundingTime } from '../../src/exchange/paper/paper-funding';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount, manualOpenRequest } from '../support/engine';
import { asUser, startTradesApp, type TradesApp } from '../support/trades-app';
import { registerUser, type Session } from '../support/users';

const HOUR = 3_600_000;

/**
 * Issue 19: a paper futures trade held across two funding times. The paper venue settles both on the position
 * (00:00, 08:00, 16:00 UTC; 0.01 % of the notional); reconciliation reads them from its funding history and
 * books them on the trade, so the trade's PnL is what the paper account's USDT moved by.
 */
describe('paper futures funding booked on the trade', () => {
  /** The paper venue's clock runs ahead of the wall clock by `shift` (the trade's own times stay real). */
  let shift = 0;
  const market = new ScriptedMarket(() => Date.now() + shift);
  let t: TradesApp;
  let alice: Session;

  beforeAll(async () => {
    t = await startTradesApp({ paperVenueOptions: { market, clock: () => Date.now() + shift } });
    alice = await registerUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("books both payments, and the trade's PnL equals the paper account's balance change", async () => {
    const created = await createPaperAccount(t.app, alice, { marketType: 'future' });
    const account = (await t.app.services.repos.accounts.findById(created.id))!;
    const gateway = await t.app.services.venues.gateways.forAccount(account);
    const usdt = async () => new Decimal((await gateway.fetchBalances())['USDT']!.total);
    const before = await usdt();

    const { supervisor, reconciler } = t.app.services.engine;
    const sweep = () => reconciler.reconcileAccount({ id: account.id }, { sweep: true });
    const opened = await supervisor.managedLifecycle.open(
      gateway,
      manualOpenRequest({
        userId: String(alice.user.id),
        accountId: account.id,
        clientOrderId: 'paperfunding1',
        quantity: '0.02',
      }),
    );
    expect(opened.status).toBe('open');

    // The first funding time after the open: the long pays 0.02 × 65000 × 0.0001 = 0.13.
    const first = nextFundingTime(Date.now());
    shift = first + 60_000 - Date.now();
    await sweep();
    expect((await t.app.services.repos.trades.findById(opened.id))!.funding).toBe('-0.13');

    // The next, at 66000: 0.132 more. Read twice: booked once.
    market.mid = new Decimal('66000');
    shift = first + 8 * HOUR + 60_000 - Date.now();
    await sweep();
    await sweep();
    expect((await t.app.services.repos.trades.findById(opened.id))!.funding).toBe('-0.262');
    const { rows } = await t.db.pool.query(
      'SELECT amount::float8::text AS amount, at FROM funding_payments WHERE trade_id = $1 ORDER BY at',
      [opened.id],
    );
    expect(rows.map((r: { amount: string; at: Date }) => [r.amount, r.at.getTime()])).toEqual([
      ['-0.13', first],
      ['-0.132', first + 8 * HOUR],
    ]);

    // Closed at market; a third funding time passes after the close and is nobody's.
    const closed = await asUser(t.app, alice).post(`/api/trades/${opened.id}/complete`, {});
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    shift = first + 16 * HOUR + 60_000 - Date.now();
    await sweep();
    const trade = (await t.app.services.repos.trades.findById(opened.id))!;
    expect(trade.status).toBe('closed');
    expect(trade.funding).toBe('-0.262');
    expect(await gateway.fetchPositions()).toEqual([]);

    const moved = (await usdt()).minus(before);
    expect(
      new Decimal(trade.realisedPnl!).minus(moved).abs().lte('1e-8'),
      `${trade.realisedPnl} vs ${moved.toFixed()}`,
    ).toBe(true);

    // The ledger holds every movement behind it: the fills' legs, their fees and both funding payments; in
    // USDT they add up to the trade's PnL and to what the account moved by, and the base legs net to nothing.
    const { rows: movements } = await t.db.pool.query<{ kind: string; currency: string; total: string }>(
      `SELECT kind, currency, sum(amount)::text AS total, count(*)::int AS n FROM ledger_events
        WHERE trade_id = $1 AND kind IN ('fill', 'fee', 'funding') GROUP BY kind, currency ORDER BY kind, currency`,
      [opened.id],
    );
    const byKey = new Map(movements.map((m) => [`${m.kind} ${m.currency}`, new Decimal(m.total)]));
    expect([...byKey.keys()]).toEqual(['fee USDT', 'fill BTC', 'fill USDT', 'funding USDT']);
    expect(byKey.get('fill BTC')!.isZero()).toBe(true);
    expect(byKey.get('funding USDT')!.toFixed()).toBe('-0.262');
    const inUsdt = byKey.get('fee USDT')!.plus(byKey.get('fill USDT')!).plus(byKey.get('funding USDT')!);
    expect(inUsdt.minus(moved).abs().lte('1e-8'), `${inUsdt} vs ${moved.toFixed()}`).toBe(true);
  });
});
