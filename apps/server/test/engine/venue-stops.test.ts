import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../fakes/scripted-market';
import { createPaperAccount, manualOpenRequest, venueStopsOf } from '../support/engine';
import { registerUser, type Session } from '../support/users';
import { VenueFaults } from '../fakes/venue-faults';
import { asUser, eventually, startTradesApp, type TradesApp } from '../support/trades-app';

/**
 * The stop-loss resting on the venue (issue 18), on the paper venue's futures: it rests as soon as the entry
 * filled, follows break-even after TP1 (the new stop acknowledged before the old one goes), shrinks with the
 * take-profits, and closes the position at the venue while Kairos is stopped — the trade booked closed with
 * the venue's fills when Kairos comes back, nothing placed twice.
 */
const market = new ScriptedMarket(() => Date.now());
let t: TradesApp;
let alice: Session;
let accountId: string;
let seq = 0;

const stopsOf = (app: TradesApp, tradeId: string) => venueStopsOf(app.db, tradeId);

/**
 * A trade on a fresh futures account (futures positions are net per account and symbol); `arm` injects the
 * venue's faults before the entry.
 */
async function openTrade(
  app: TradesApp,
  overrides: Record<string, unknown> = {},
  arm?: (faults: VenueFaults) => void,
) {
  seq += 1;
  accountId = (await createPaperAccount(app.app, alice, { marketType: 'future' })).id;
  const gateway = await app.app.services.venues.gateways.forAccount(
    (await app.app.services.repos.accounts.findById(accountId))!,
  );
  arm?.(new VenueFaults(gateway));
  const trade = await app.app.services.engine.supervisor.managedLifecycle.open(
    gateway,
    manualOpenRequest({
      userId: String(alice.user.id),
      accountId,
      clientOrderId: `vstop${process.pid}x${seq}`,
      quantity: '0.02',
      ...overrides,
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

/**
 * Each placement of the trade's stop with its last error as stored (issue 21): its English, and the code and
 * params the web says it from in the user's language.
 */
async function stopErrorsOf(tradeId: string) {
  const { rows } = await t.db.pool.query(
    `SELECT status, last_error, last_error_code, last_error_params FROM venue_stops
      WHERE trade_id = $1 ORDER BY created_at, client_order_id`,
    [tradeId],
  );
  return rows as {
    status: string;
    last_error: string | null;
    last_error_code: string | null;
    last_error_params: Record<string, string | number> | null;
  }[];
}

const NO_ERROR = { last_error: null, last_error_code: null, last_error_params: null };
const sweep = () => t.app.services.engine.reconciler.reconcileAccount({ id: accountId }, { sweep: true });
const age = (tradeId: string) =>
  t.db.pool.query(`UPDATE venue_stops SET updated_at = now() - interval '31 seconds' WHERE trade_id = $1`, [
    tradeId,
  ]);
const noTakeProfits = { plan: { takeProfits: [], stopLossPercent: '1', breakEvenAfterTp1: false } };

describe('why a stop is not resting, kept with its code and params', () => {
  it('a refused placement: the refusal’s code, the venue’s words as its reason', async () => {
    market.moveTo('65000');
    const { trade } = await openTrade(t, noTakeProfits, (faults) => faults.inject('placeStop', 'refused'));
    expect(await stopErrorsOf(trade.id)).toEqual([
      {
        status: 'rejected',
        last_error: 'Filter failure: NOTIONAL',
        last_error_code: 'INVALID_ORDER',
        last_error_params: { reason: 'Filter failure: NOTIONAL' },
      },
    ]);
  });

  it('an unanswered placement, then never received', async () => {
    market.moveTo('65000');
    const { trade } = await openTrade(t, noTakeProfits, (faults) => faults.inject('placeStop', 'timeout'));
    expect(await stopErrorsOf(trade.id)).toEqual([
      {
        status: 'unknown',
        last_error: 'Request timed out',
        last_error_code: 'UNKNOWN_OUTCOME',
        last_error_params: { reason: 'Request timed out' },
      },
    ]);
    await age(trade.id);
    await sweep();
    expect((await stopErrorsOf(trade.id))[0]).toEqual({
      status: 'rejected',
      last_error: 'The venue never received this stop',
      last_error_code: 'STOP_LOST',
      last_error_params: null,
    });
  });

  it('a stop the venue says once it does not have, then found again; then gone for good', async () => {
    market.moveTo('65000');
    let faults!: VenueFaults;
    const { trade } = await openTrade(t, noTakeProfits, (f) => (faults = f));
    expect(await stopErrorsOf(trade.id)).toEqual([{ status: 'open', ...NO_ERROR }]);
    const once = {
      status: 'open',
      last_error: 'The venue said it has no such stop (once)',
      last_error_code: 'STOP_NOT_FOUND_ONCE',
      last_error_params: null,
    };
    faults.inject('fetchStop', 'notFound', { count: 1 });
    await sweep();
    expect(await stopErrorsOf(trade.id)).toEqual([once]);
    // The venue shows it again: the mark goes, code and all.
    await sweep();
    expect(await stopErrorsOf(trade.id)).toEqual([{ status: 'open', ...NO_ERROR }]);

    faults.inject('fetchStop', 'notFound', { count: 2 });
    await sweep();
    expect(await stopErrorsOf(trade.id)).toEqual([once]);
    await age(trade.id);
    await sweep();
    expect((await stopErrorsOf(trade.id))[0]).toEqual({
      status: 'cancelled',
      last_error: 'The venue no longer has this stop',
      last_error_code: 'STOP_GONE',
      last_error_params: null,
    });
  });
});

describe('a futures trade on the paper venue', () => {
  it('rests its stop on the venue once the entry filled: reduce-only, what it holds, at its stop price', async () => {
    market.moveTo('65000');
    const { trade, gateway } = await openTrade(t);
    expect(trade).toMatchObject({ status: 'open', quantity: '0.02' });
    const rows = await stopsOf(t, trade.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'open',
      amount: '0.02',
      trigger_price: String(Number(trade.stopLossPrice)),
    });
    const onVenue = await gateway.stops!.fetchStopByClientId(rows[0]!.client_order_id, 'BTC/USDT');
    expect(onVenue).toMatchObject({
      status: 'open',
      side: 'sell',
      amount: '0.02',
      triggerPrice: trade.stopLossPrice,
    });
  });

  it('moves it to break-even after TP1 with the smaller size, the new stop resting before the old one goes', async () => {
    market.moveTo('65000');
    const { trade, gateway } = await openTrade(t);
    // TP1 (+2 %) fills.
    market.moveTo('66400');
    await t.app.services.venues.paperVenue.matchRestingOrders(accountId);
    await t.app.services.engine.reconciler.reconcileAccount({ id: accountId }, { sweep: true });
    const after = await eventually(
      () => detail(t, trade.id),
      (d) => d.trade.stopMovedToBreakEven,
    );
    const rows = await stopsOf(t, trade.id);
    expect(rows.map((r) => [r.status, r.amount])).toEqual([
      ['cancelled', '0.02'],
      ['open', '0.01'],
    ]);
    expect(Number(rows[1]!.trigger_price)).toBe(Number(after.trade.stopLossPrice));
    const live = await gateway.stops!.fetchStopByClientId(rows[1]!.client_order_id, 'BTC/USDT');
    expect(live.status).toBe('open');
  });

  it('is never without a stop while break-even and a take-profit fill move it, the venue answering slowly', async () => {
    market.moveTo('65000');
    const { trade, gateway } = await openTrade(t);
    // Every stop placement and cancel takes 200 ms to answer.
    const stops = gateway.stops!;
    const slow =
      <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
      async (...a: A) => {
        await new Promise((r) => setTimeout(r, 200));
        return fn(...a);
      };
    Object.defineProperty(gateway, 'stops', {
      value: {
        ...stops,
        placeStop: slow(stops.placeStop.bind(stops)),
        cancelStop: slow(stops.cancelStop.bind(stops)),
        fetchStop: stops.fetchStop.bind(stops),
        fetchStopByClientId: stops.fetchStopByClientId.bind(stops),
      },
    });
    const live = async () =>
      Number(
        (
          await t.db.pool.query(
            `SELECT count(*) AS n FROM paper_stops WHERE account_id = $1 AND status = 'open'`,
            [accountId],
          )
        ).rows[0].n,
      );
    const counts: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        counts.push(await live());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    // TP1 fills: the stop moves to break-even and shrinks to what is left, while a second pass (a fill event,
    // a reconciliation) runs at the same moment.
    market.moveTo('66400');
    await t.app.services.venues.paperVenue.matchRestingOrders(accountId);
    const { reconciler, supervisor } = t.app.services.engine;
    await Promise.all([
      reconciler.reconcileAccount({ id: accountId }, { sweep: true }),
      supervisor.supervise(trade.id),
      supervisor.supervise(trade.id),
    ]);
    await eventually(
      () => detail(t, trade.id),
      (d) => d.trade.stopMovedToBreakEven,
    );
    sampling = false;
    await sampler;
    expect(counts.length).toBeGreaterThan(10);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
    expect(await live()).toBe(1);
    const rows = await stopsOf(t, trade.id);
    expect(rows.filter((r) => r.status === 'open').map((r) => r.amount)).toEqual(['0.01']);
  });

  it("follows the user's stop edits: moved to the new price, cancelled when the stop is removed", async () => {
    market.moveTo('65000');
    const { trade, gateway } = await openTrade(t);
    const api = asUser(t.app, alice);
    const moved = await api.put(`/api/trades/${trade.id}`, { stopLossPrice: '64000' });
    expect(moved.status).toBe(200);
    let rows = await stopsOf(t, trade.id);
    expect(rows.map((r) => [r.status, r.trigger_price])).toEqual([
      ['cancelled', String(Number(trade.stopLossPrice))],
      ['open', '64000'],
    ]);
    expect(
      (await gateway.stops!.fetchStopByClientId(rows[1]!.client_order_id, 'BTC/USDT')).triggerPrice,
    ).toBe('64000');
    const removed = await api.put(`/api/trades/${trade.id}`, { stopLossPrice: null });
    expect(removed.status).toBe(200);
    rows = await stopsOf(t, trade.id);
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect((await gateway.stops!.fetchStopByClientId(rows[1]!.client_order_id, 'BTC/USDT')).status).toBe(
      'cancelled',
    );
  });

  it('cancels its stop when the trade is closed by an exit', async () => {
    market.moveTo('65000');
    const { trade, gateway } = await openTrade(t);
    const closed = await t.app.services.engine.supervisor.managedLifecycle.close(
      gateway,
      trade,
      `vstopexit${process.pid}x${seq}`,
      'signal exit',
    );
    expect(closed.status).toBe('closed');
    const rows = await stopsOf(t, trade.id);
    expect(rows.map((r) => r.status)).toEqual(['cancelled']);
  });
});

describe('Kairos stopped with an open futures trade, the price through its stop', () => {
  it('finds the position closed by the venue at the stop and books the trade closed with the venue fills', async () => {
    market.moveTo('65000');
    const { trade } = await openTrade(t, {
      plan: { takeProfits: [], stopLossPercent: '1', breakEvenAfterTp1: false },
    });
    const [stop] = await stopsOf(t, trade.id);
    expect(stop!.status).toBe('open');

    // Kairos goes away; the market falls through the stop (64350) while nobody watches.
    await t.close({ drop: false });
    market.moveTo('64000');

    t = await startTradesApp({ db: t.db, dataDir: t.dataDir, monitor: true, paperVenueOptions: { market } });
    const d = await eventually(
      () => detail(t, trade.id),
      (x) => x.trade.status === 'closed',
      20_000,
    );
    expect(d.trade).toMatchObject({ closeReason: 'stop loss', openQuantity: '0' });
    const exits = d.fills.filter((f: { role: string }) => f.role !== 'entry');
    expect(exits.map((f: { role: string; amount: string }) => [f.role, f.amount])).toEqual([
      ['stop', '0.02'],
    ]);
    // Nothing placed twice: one stop, one exit; the paper position is flat.
    expect((await stopsOf(t, trade.id)).map((r) => r.status)).toEqual(['triggered']);
    const gateway = await t.app.services.venues.gateways.forAccount(
      (await t.app.services.repos.accounts.findById(accountId))!,
    );
    expect((await gateway.fetchPositions()).filter((p) => p.symbol === 'BTC/USDT')).toEqual([]);
  });
});
