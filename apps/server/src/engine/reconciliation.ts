import { toDecimal } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import { OrderNotFoundError } from '../exchange/errors';
import type { ExchangeGateway, Order } from '../exchange/gateway';
import type { OrderRow, TradesRepo } from './trades-repo';
import type { AccountReadiness } from './account-readiness';
import type { AccountLookup, AccountRow, GatewayProvider } from '../exchange/gateway-provider';
import { startIntervalLoop } from './interval-loop';
import { attributeFunding } from './trades-fns';
import type { OrderExecutor } from './order-executor';
import type { TradeSupervisor } from './trade-supervisor';
import type { VenueStopGuard } from './venue-stop-guard';
import type { PositionCheck } from './position-check';
import type { TradeDbRow } from './trades-repo';

export type Reconciler = ReturnType<typeof createReconciler>;

/**
 * Reconciliation (DESIGN §6). Every order we believe live (submitted, open, partially filled, unknown)
 * is read back from its venue — one open-orders call per account and symbol, then a lookup by venue id
 * (or by client order id when we never learnt it) for each order no longer listed — and our rows are
 * brought in line through the executor, so the order state table is respected and fills are stored once.
 * Startup is reconciliation: crash recovery and a normal start share this path. It is also the fill
 * poller of ccxt accounts.
 */
export function createReconciler(deps: {
  trades: TradesRepo;
  accounts: AccountLookup;
  gateways: GatewayProvider;
  executor: OrderExecutor;
  supervisor: Pick<TradeSupervisor, 'supervise'>;
  /**
   * The venue's futures positions against the open trades, on sweeps (a position closed outside Kairos is
   * booked from the venue's fills; one larger than the trades is alerted): see position-check.ts.
   */
  positions?: Pick<PositionCheck, 'checkAccount'>;
  /** Stops resting on venues: read back on sweeps (a stop that triggered while Kairos was down is booked). */
  venueStops?: Pick<VenueStopGuard, 'checkAccount'>;
  readiness: Pick<AccountReadiness, 'markReady'>;
  log: FastifyBaseLogger;
}) {
  const { trades, executor, log } = deps;

  /** The sweep's own account row when it has one, else read (a pass that names only the account's id). */
  const rowOf = async (account: Pick<AccountRow, 'id'> | AccountRow) =>
    'exchange' in account ? account : await deps.accounts.findById(account.id);

  const unchanged = (row: OrderRow, venue: Order) =>
    venue.status === row.status && toDecimal(venue.filled).eq(row.filled) && row.venueOrderId !== null;

  /** What the venue says about one of our live orders; undefined when it has never heard of it. */
  async function lookUp(gateway: ExchangeGateway, row: OrderRow, listed: Map<string, Order>) {
    const seen = (row.venueOrderId && listed.get(row.venueOrderId)) || listed.get(`c:${row.clientOrderId}`);
    if (seen) return seen;
    try {
      return row.venueOrderId
        ? await gateway.fetchOrder(row.venueOrderId, row.symbol)
        : await gateway.fetchOrderByClientId(row.clientOrderId, row.symbol);
    } catch (e) {
      if (e instanceof OrderNotFoundError) return undefined;
      throw e;
    }
  }

  /**
   * Phase one, no new orders: re-reads the account's live orders and applies what changed. Returns the
   * trades touched. This is what opens the account's order gate.
   */
  async function settleLiveOrders(accountId: string): Promise<Set<string>> {
    const touched = new Set<string>();
    const live = await trades.liveOrders(accountId);
    if (live.length === 0) return touched;
    const account = await deps.accounts.findById(accountId);
    if (!account) return touched;
    const gateway = await deps.gateways.forAccount(account);
    for (const symbol of new Set(live.map((o) => o.symbol))) {
      const listed = new Map<string, Order>();
      try {
        for (const order of await gateway.fetchOpenOrders(symbol)) {
          listed.set(order.venueOrderId, order);
          if (order.clientOrderId) listed.set(`c:${order.clientOrderId}`, order);
        }
      } catch (e) {
        // Without the list, each order is looked up on its own below.
        log.warn({ err: e, accountId, symbol }, 'could not list open orders; looking each order up');
      }
      for (const row of live.filter((o) => o.symbol === symbol)) {
        // One order's trouble is logged and retried next pass; the rest of the account is reconciled.
        try {
          const venue = await lookUp(gateway, row, listed);
          // Never heard of: the supervisor resends it or gives it up once its grace period is over.
          if (!venue) touched.add(row.tradeId);
          else if (!unchanged(row, venue)) {
            await executor.applyVenueOrder(gateway, row, venue);
            touched.add(row.tradeId);
          }
        } catch (e) {
          log.warn({ err: e, orderId: row.id, tradeId: row.tradeId }, 'could not reconcile an order');
        }
      }
    }
    return touched;
  }

  /**
   * Orders whose stored fills do not add up to their `filled` (the venue's trade list lagged, a lookup
   * failed, a crash came between): their fills asked for again. Returns the trades whose fills changed.
   */
  async function settleMissingFills(accountId: string): Promise<Set<string>> {
    const touched = new Set<string>();
    const missing = await trades.ordersMissingFills(accountId);
    if (missing.length === 0) return touched;
    const account = await deps.accounts.findById(accountId);
    if (!account) return touched;
    const gateway = await deps.gateways.forAccount(account);
    for (const row of missing) {
      try {
        if (await executor.settleFills(gateway, row)) touched.add(row.tradeId);
      } catch (e) {
        log.warn({ err: e, orderId: row.id }, 'could not settle the fills of an order');
      }
    }
    return touched;
  }

  /**
   * A futures account's funding (issue 19): the venue's funding history of every symbol it holds (or held
   * until a close not yet read past), booked on the trades that held the position at each payment. Returns
   * the trades whose funding changed (their figures are recomputed by the supervisor).
   */
  async function settleFunding(account: Pick<AccountRow, 'id'> | AccountRow): Promise<Set<string>> {
    const touched = new Set<string>();
    const row = await rowOf(account);
    if (!row || row.marketType !== 'future') return touched;
    const awaiting = await trades.tradesAwaitingFunding(row.id);
    if (awaiting.length === 0) return touched;
    const gateway = await deps.gateways.forAccount(row);
    const checkedAt = new Date();
    for (const symbol of new Set(awaiting.map((t) => t.symbol))) {
      const holders = awaiting.filter((t) => t.symbol === symbol);
      const since = Math.min(...holders.map((t) => t.openedAt.getTime()));
      try {
        const payments = await gateway.fetchFundingHistory(symbol, since);
        const shares = attributeFunding(holders, payments);
        for (const trade of holders) {
          const booked = (shares.get(trade.id) ?? []).map((p) => ({
            tradingAccountId: row.id,
            venuePaymentId: p.id,
            symbol,
            amount: p.share,
            currency: p.currency,
            at: new Date(p.timestamp),
          }));
          // Nothing new for a trade still held: no write (a sweep of many open trades costs one read a symbol).
          // A closed one is marked read past its close, so it is not read again.
          if (booked.length === 0 && trade.status !== 'closed') continue;
          if (await trades.bookFunding(trade.id, booked, checkedAt)) touched.add(trade.id);
        }
      } catch (e) {
        log.warn(
          { err: e, accountId: row.id, symbol },
          'could not read the funding history; read again next sweep',
        );
      }
    }
    return touched;
  }

  /**
   * One account: live orders settled, the gate opened, then every trade touched (and, on a sweep,
   * every trade still managed) followed through by the supervisor — ladders placed, stops moved,
   * trades closed.
   */
  async function reconcileAccount(account: Pick<AccountRow, 'id'> | AccountRow, options: { sweep: boolean }) {
    // First the venue stops: a triggered one becomes an exit order that the live orders below settle.
    const stopsChanged = options.sweep ? await checkVenueStops(account) : new Set<string>();
    const touched = await settleLiveOrders(account.id);
    for (const tradeId of stopsChanged) touched.add(tradeId);
    deps.readiness.markReady(account.id);
    // On sweeps only (about once a minute): the quantity is already covered by the inferred fill, only the
    // venue's own prices and fees wait, and the per-account read is not worth every 5 s pass.
    if (options.sweep) for (const tradeId of await settleMissingFills(account.id)) touched.add(tradeId);
    if (options.sweep) {
      const active = await trades.activeTrades(account.id);
      for (const trade of active) touched.add(trade.id);
      // After the live orders and their fills settled above: what the venue holds against what they hold.
      for (const tradeId of await checkPositions(account, active)) touched.add(tradeId);
    }
    if (options.sweep) for (const tradeId of await settleFunding(account)) touched.add(tradeId);
    for (const tradeId of touched) {
      try {
        await deps.supervisor.supervise(tradeId);
      } catch (e) {
        log.warn({ err: e, tradeId }, 'could not follow a trade through after reconciliation');
      }
    }
    return touched;
  }

  /**
   * A futures account's positions against its open trades (one positions read; none for a spot account or one
   * without open trades). Returns the trades it booked an outside close on.
   */
  async function checkPositions(
    account: Pick<AccountRow, 'id'> | AccountRow,
    active: readonly TradeDbRow[],
  ): Promise<Set<string>> {
    if (!deps.positions || active.length === 0) return new Set();
    try {
      const row = await rowOf(account);
      if (!row || row.marketType !== 'future') return new Set();
      return await deps.positions.checkAccount(await deps.gateways.forAccount(row), row.id, active);
    } catch (e) {
      log.warn({ err: e, accountId: account.id }, 'could not compare the venue positions with the trades');
      return new Set();
    }
  }

  /** The account's venue stops read back; the sweep's own account row is used as it is (no second read). */
  async function checkVenueStops(account: Pick<AccountRow, 'id'> | AccountRow): Promise<Set<string>> {
    if (!deps.venueStops) return new Set();
    try {
      const row = await rowOf(account);
      if (!row) return new Set();
      return await deps.venueStops.checkAccount(await deps.gateways.forAccount(row), row.id);
    } catch (e) {
      log.warn({ err: e, accountId: account.id }, 'could not read the venue stops back');
      return new Set();
    }
  }

  /** Every account with live orders or managed trades; one account's venue trouble never stops the others. */
  async function reconcileAll(options: { sweep: boolean }) {
    for (const account of await trades.accountsToReconcile()) {
      try {
        await reconcileAccount(account, options);
      } catch (e) {
        log.warn({ err: e, accountId: account.id }, 'reconciliation of an account failed');
      }
    }
  }

  return { settleLiveOrders, reconcileAccount, reconcileAll };
}

/**
 * Reconciles at once (a full sweep: startup is reconciliation) and then every `intervalMs` — a
 * full sweep every `sweepEvery` passes, otherwise only trades whose orders changed. The default 5 s
 * keeps ccxt polling (one open-orders call per account and symbol) far inside venue limits.
 */
export function startReconciliationLoop(
  reconciler: Reconciler,
  log: FastifyBaseLogger,
  options: { intervalMs?: number; sweepEvery?: number } = {},
) {
  const sweepEvery = options.sweepEvery ?? 12;
  return startIntervalLoop(
    (pass) => reconciler.reconcileAll({ sweep: pass % sweepEvery === 0 }),
    options.intervalMs ?? 5_000,
    (e) => log.error({ err: e }, 'reconciliation pass failed'),
  );
}
