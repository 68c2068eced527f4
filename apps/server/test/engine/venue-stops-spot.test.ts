import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/exchange/decimal';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount, manualOpenRequest, venueStopsOf } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { asUser, eventually, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * The stop resting on the venue for spot trades (issue 18): a stop-limit, its limit the trade's offset past
 * the stop, for what the trade holds less what its resting take-profits hold (they lock the same coins);
 * replaced by cancelling the old one first; cancelled before any exit sells; and, while Kairos is stopped,
 * the venue sells at the stop — the trade booked closed with the venue's fills when Kairos comes back.
 */
const market = new ScriptedMarket(() => Date.now());
let t: TradesApp;
let alice: Session;
let accountId: string;
let seq = 0;

const stopsOf = (app: TradesApp, tradeId: string) => venueStopsOf(app.db, tradeId);

/** A spot trade of 0.02 BTC on a fresh paper spot account; no take-profits and a 1 % stop unless told. */
async function openSpotTrade(app: TradesApp, plan: Record<string, unknown> = {}) {
  seq += 1;
  accountId = (await createPaperAccount(app.app, alice)).id;
  const gateway = await app.app.services.venues.gateways.forAccount(
    (await app.app.services.repos.accounts.findById(accountId))!,
  );
  const trade = await app.app.services.engine.supervisor.managedLifecycle.open(
    gateway,
    manualOpenRequest({
      userId: String(alice.user.id),
      accountId,
      clientOrderId: `sstop${process.pid}x${seq}`,
      quantity: '0.02',
      plan: { takeProfits: [], stopLossPercent: '1', breakEvenAfterTp1: false, ...plan },
    }),
  );
  return { trade, gateway };
}

const detail = async (app: TradesApp, id: string) =>
  (await asUser(app.app, alice).get(`/api/trades/${id}`)).body.results;

beforeAll(async () => {
  market.moveTo('65000');
  t = await startTradesApp({ paperVenueOptions: { market } });
  alice = await registerUser(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('a spot trade on the paper venue', () => {
  it('rests a stop-limit for what it holds, its limit 0.5 % under the stop', async () => {
    market.moveTo('65000');
    const { trade, gateway } = await openSpotTrade(t);
    expect(trade.status).toBe('open');
    const rows = await stopsOf(t, trade.id);
    expect(rows).toHaveLength(1);
    // What it holds: 0.02 less the entry's fee taken in BTC, to the step.
    expect(rows[0]).toMatchObject({ status: 'open', trigger_price: String(Number(trade.stopLossPrice)) });
    expect(Number(rows[0]!.amount)).toBeCloseTo(Number(trade.quantity), 8);
    const onVenue = await gateway.stops!.fetchStopByClientId(rows[0]!.client_order_id, 'BTC/USDT');
    expect(onVenue).toMatchObject({ status: 'open', side: 'sell', triggerPrice: trade.stopLossPrice });
    // 64350 × 0.995 = 64028.25
    expect(onVenue.limitPrice).toBe('64028.25');
  });

  it('leaves a trade whose take-profits hold all its coins to the watch: no stop could rest beside them', async () => {
    market.moveTo('65000');
    // A ladder's sizes always add up to the whole position (one level of 50 % is all of it).
    const { trade } = await openSpotTrade(t, {
      takeProfits: [{ role: 'tp1', percent: '2', sizePercent: '50' }],
    });
    const d = await detail(t, trade.id);
    expect(
      d.orders.filter((o: { role: string }) => o.role === 'tp1').map((o: { status: string }) => o.status),
    ).toEqual(['open']);
    expect(await stopsOf(t, trade.id)).toEqual([]);
    expect(d.protection).toMatchObject({ where: 'kairos' });
  });

  it('moves it by cancelling the old stop first, then placing the new one', async () => {
    market.moveTo('65000');
    const { trade } = await openSpotTrade(t);
    const moved = await asUser(t.app, alice).put(`/api/trades/${trade.id}`, { stopLossPrice: '64000' });
    expect(moved.status).toBe(200);
    const rows = await stopsOf(t, trade.id);
    expect(rows.map((r) => [r.status, r.trigger_price])).toEqual([
      ['cancelled', String(Number(trade.stopLossPrice))],
      ['open', '64000'],
    ]);
  });

  it('cancels its stop before an exit sells the coins, and the exit sells them all', async () => {
    market.moveTo('65000');
    const { trade, gateway } = await openSpotTrade(t);
    const closed = await t.app.services.engine.supervisor.managedLifecycle.close(
      gateway,
      trade,
      `sstopexit${process.pid}x${seq}`,
      'signal exit',
    );
    expect(closed.status).toBe('closed');
    expect((await stopsOf(t, trade.id)).map((r) => r.status)).toEqual(['cancelled']);
  });
});

describe('Kairos stopped with an open spot trade, the price through its stop', () => {
  it('finds the coins sold by the venue at the stop-limit and books the trade closed with the venue fills', async () => {
    market.moveTo('65000');
    const { trade } = await openSpotTrade(t);
    const [stop] = await stopsOf(t, trade.id);
    expect(stop!.status).toBe('open');

    // Kairos goes away; the market falls through the stop (64350) while nobody watches, not past its limit.
    await t.close({ drop: false });
    market.moveTo('64200');

    t = await startTradesApp({ db: t.db, dataDir: t.dataDir, monitor: true, paperVenueOptions: { market } });
    const d = await eventually(
      () => detail(t, trade.id),
      (x) => x.trade.status === 'closed',
      20_000,
    );
    expect(d.trade).toMatchObject({ closeReason: 'stop loss', openQuantity: '0' });
    const exits = d.fills.filter((f: { role: string }) => f.role !== 'entry');
    expect(exits.map((f: { role: string }) => f.role)).toEqual(exits.map(() => 'stop'));
    for (const f of exits) expect(Number(f.price)).toBeGreaterThanOrEqual(64028.25);
    // Nothing placed twice: one stop, its one order; no BTC left on the account.
    expect((await stopsOf(t, trade.id)).map((r) => r.status)).toEqual(['triggered']);
    const exitOrders = d.orders.filter((o: { role: string }) => o.role !== 'entry');
    expect(exitOrders).toHaveLength(1);
  });
});

describe('a spot stop-limit the price left behind', () => {
  it('is cancelled once it rested 10 s unfilled, and what it did not sell exits at market', async () => {
    market.moveTo('65000');
    const { trade } = await openSpotTrade(t);
    const book = market.book;
    await t.close({ drop: false });
    try {
      // A gap: nobody bids anywhere near the limit (64028.25) when the price falls through the stop.
      market.book = {
        asks: [[new Decimal('62010'), new Decimal('1')]],
        bids: [[new Decimal('62000'), new Decimal('1')]],
      };
      market.moveTo('62005');
      t = await startTradesApp({ db: t.db, dataDir: t.dataDir, paperVenueOptions: { market } });
      const { supervisor, reconciler } = t.app.services.engine;
      await reconciler.reconcileAccount({ id: accountId }, { sweep: true });
      const closing = await eventually(
        () => detail(t, trade.id),
        (x) =>
          x.orders.some((o: { role: string; status: string }) => o.role === 'stop' && o.status === 'open'),
      );
      expect(closing.trade.status).toBe('closing');
      // Not yet: a stop-limit is given its time.
      await supervisor.supervise(trade.id);
      expect((await detail(t, trade.id)).trade.status).toBe('closing');
      // Ten seconds later it is still unfilled: cancelled, the rest sold at market.
      await t.db.pool.query(
        `UPDATE orders SET created_at = now() - interval '11 seconds' WHERE trade_id = $1 AND role = 'stop'`,
        [trade.id],
      );
      await supervisor.supervise(trade.id);
      const d = await eventually(
        () => detail(t, trade.id),
        (x) => x.trade.status === 'closed',
      );
      expect(d.trade).toMatchObject({ closeReason: 'stop loss', openQuantity: '0' });
      const exits = d.orders.filter((o: { role: string }) => o.role !== 'entry');
      expect(exits.map((o: { type: string; status: string }) => [o.type, o.status])).toEqual([
        ['limit', 'cancelled'],
        ['market', 'filled'],
      ]);
    } finally {
      market.book = book;
    }
  });
});
