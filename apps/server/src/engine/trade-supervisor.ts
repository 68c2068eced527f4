import type { CloseReason } from '@kairos/contract';
import {
  averageFillPrice,
  tradeClientOrderId,
  breakEvenStop,
  isOpenState,
  isTakeProfitRole,
  isTradeActive,
  stopLossPrice,
  sum,
  toDecimal,
  toNumericString,
} from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import { OrderNotFoundError } from '../exchange/errors';
import { FALLBACK_TICK, type ExchangeGateway, type Market } from '../exchange/gateway';
import { heldQuantity, ladderView } from './trades-fns';
import type { BotPositionsRepo } from './bot-positions-repo';
import type { OrderRow, TradeDbRow, TradesRepo } from './trades-repo';
import type { AccountLookup, GatewayProvider } from '../exchange/gateway-provider';
import { LOST_ORDER, UNRESOLVED_GRACE_MS, type OrderExecutor } from './order-executor';
import type { TakeProfitOrders } from './take-profit-orders';
import type { TradeLock } from './trade-lock';
import type { VenueStopGuard } from './venue-stop-guard';
import { findMarket, type OpenRequest, type TradeLifecycle, type TradeState } from './trade-lifecycle';

/** An order that left without an answer is looked up again only after this long (it may be in flight). */
const UNANSWERED_GRACE_MS = UNRESOLVED_GRACE_MS;
/** A triggered spot stop-limit not filled after this long is replaced by a market exit (see `chaseStopLimit`). */
export const STOP_LIMIT_CHASE_MS = 10_000;

export type TradeSupervisor = ReturnType<typeof createTradeSupervisor>;

/**
 * Brings one trade to where its fills say it should be, and is safe to run any number of times: after
 * the entry fills, the take-profit ladder and the stop price; after TP1, the stop at break-even; when
 * nothing is held any more, the trade closed, leftovers cancelled and the bot out. Runs under the trade
 * lock after every change the engine sees (an order event, a poll, reconciliation, an API action).
 */
export function createTradeSupervisor(deps: {
  trades: TradesRepo;
  botPositions: Pick<BotPositionsRepo, 'outUnlessTrading'>;
  accounts: AccountLookup;
  gateways: GatewayProvider;
  executor: OrderExecutor;
  lifecycle: TradeLifecycle;
  takeProfits: TakeProfitOrders;
  /** The stop resting on the venue, where it has stop orders (issue 18). */
  venueStops?: Pick<VenueStopGuard, 'ensure' | 'retire'>;
  lock: TradeLock;
  log: FastifyBaseLogger;
  now?: () => number;
}) {
  const { trades, executor, lifecycle, takeProfits, lock, log } = deps;
  const now = deps.now ?? Date.now;

  async function gatewayFor(trade: Pick<TradeDbRow, 'tradingAccountId'>): Promise<ExchangeGateway> {
    const account = await deps.accounts.findById(trade.tradingAccountId);
    if (!account) throw new Error(`Trading account ${trade.tradingAccountId} is gone`);
    return deps.gateways.forAccount(account);
  }

  const age = (row: OrderRow) => now() - row.updatedAt.getTime();

  /**
   * Orders a crash or a refusal left unsent (`new`), or sent without an answer, are sent or looked up
   * again — by client order id first, so nothing is doubled. A push resumes through the push (its limit
   * is cancelled first). Intentions of a trade no longer open are dropped instead. True when it did
   * anything (the trade's rows changed).
   */
  async function resumeUnsentOrders(gateway: ExchangeGateway, state: TradeState, market: Market) {
    const { trade } = state;
    let acted = false;
    for (const row of state.orders) {
      try {
        if (row.role === 'entry') {
          if (
            ['submitted', 'unknown'].includes(row.status) &&
            !row.venueOrderId &&
            age(row) > UNANSWERED_GRACE_MS
          ) {
            acted = true;
            // Lost: an open trade's entry goes again under a new id; one being closed is given up.
            if (trade.status === 'open') await executor.submit(gateway, row, false);
            else await settleLostEntry(gateway, row);
          }
          continue;
        }
        if (row.status === 'new') {
          acted = true;
          const wanted = trade.status === 'open' || !isTakeProfitRole(row.role);
          if (!wanted) await trades.deleteUnsentOrder(row.id);
          else if (isTakeProfitRole(row.role) && row.type === 'market')
            await takeProfits.pushTakeProfit(gateway, trade, row.role, market);
          else await executor.submit(gateway, row, true);
        } else if (
          (row.status === 'submitted' &&
            !row.venueOrderId &&
            (row.lastError || age(row) > UNANSWERED_GRACE_MS)) ||
          (row.status === 'unknown' && age(row) > UNANSWERED_GRACE_MS)
        ) {
          acted = true;
          await executor.submit(gateway, row, false);
        }
      } catch (e) {
        log.warn({ err: e, orderId: row.id, tradeId: trade.id }, 'could not resume an order');
      }
    }
    return acted;
  }

  /** An entry that left without an answer and that the venue does not know: it never arrived. */
  async function settleLostEntry(gateway: ExchangeGateway, row: OrderRow) {
    try {
      const venue = await gateway.fetchOrderByClientId(row.clientOrderId, row.symbol);
      await executor.applyVenueOrder(gateway, row, venue);
    } catch (e) {
      if (!(e instanceof OrderNotFoundError)) throw e;
      await trades.updateOrderLocked(row.id, (current) =>
        current.status === 'submitted' || current.status === 'unknown'
          ? { status: 'rejected', ...LOST_ORDER }
          : null,
      );
    }
  }

  /** Stop price from the trade's stop percent once the entry price is known. */
  function initialStop(trade: TradeDbRow, entryPrice: string, market: Market) {
    if (!trade.stopLossPercent || trade.stopLossPrice) return undefined;
    return toNumericString(
      stopLossPrice({
        side: trade.side,
        entryPrice,
        stopLossPercent: trade.stopLossPercent,
        priceTick: market.priceTick ?? FALLBACK_TICK,
      }),
    );
  }

  /**
   * The stop at break-even after TP1 (DESIGN §6), with the entry fee rate paid both ways. Only ever
   * tightens: a stop the user already set past break-even stays.
   */
  function breakEven(trade: TradeDbRow, entryPrice: string, feePercent: string, market: Market) {
    const be = breakEvenStop({
      side: trade.side,
      entryPrice,
      priceTick: market.priceTick ?? FALLBACK_TICK,
      feePercent,
    });
    if (!trade.stopLossPrice) return toNumericString(be);
    const current = toDecimal(trade.stopLossPrice);
    const tighter = trade.side === 'long' ? (be.gt(current) ? be : current) : be.lt(current) ? be : current;
    return toNumericString(tighter);
  }

  /**
   * Ladder, stop and break-even of an open trade whose entry is done. Returns the state after, and
   * whether orders it placed filled at once (then the fills must be read again).
   */
  async function manageOpenTrade(
    gateway: ExchangeGateway,
    state: TradeState,
    market: Market,
  ): Promise<{ state: TradeState; filledAtOnce: boolean }> {
    const { trade, fills } = state;
    let { orders } = state;
    const unchanged = { state, filledAtOnce: false };
    const entryOrders = orders.filter((o) => o.role === 'entry');
    const entrySide = trade.side === 'long' ? 'buy' : 'sell';
    const entryFills = fills.filter((f) => f.side === entrySide);
    const entryPrice = averageFillPrice(entryFills.map((f) => ({ ...f, quantity: f.amount })));
    if (!entryPrice || heldQuantity(trade, fills).lte(0)) return unchanged;
    if (entryOrders.some((o) => o.status === 'new' || isOpenState(o.status))) {
      // An entry still filling: what it holds so far is covered by the stop at once (the ladder waits).
      const stop = initialStop(trade, entryPrice.toFixed(), market);
      if (!stop) return unchanged;
      return {
        state: { ...state, trade: await trades.updateTrade(trade.id, { stopLossPrice: stop }) },
        filledAtOnce: false,
      };
    }

    let filledAtOnce = false;
    if (!orders.some((o) => isTakeProfitRole(o.role)) && trade.takeProfits.length > 0) {
      const placed = await takeProfits.placeTakeProfitLadder(gateway, trade, market, trade.takeProfits, {
        orders,
        fills,
      });
      const ids = new Set(placed.map((o) => o.id));
      orders = [...orders.filter((o) => !ids.has(o.id)), ...placed];
      filledAtOnce = placed.some((o) => toDecimal(o.filled).gt(0));
    }
    const change: Partial<TradeDbRow> = {};
    const stop = initialStop(trade, entryPrice.toFixed(), market);
    if (stop) change.stopLossPrice = stop;

    if (trade.breakEvenAfterTp1 && !trade.stopMovedToBreakEvenAt) {
      const levels = ladderView(trade.takeProfits, orders, trade.status);
      const first = levels.find((l) => l.clientOrderId);
      if (first?.status === 'filled') {
        const entryNotional = entryPrice.times(sum(entryFills.map((f) => f.amount)));
        const entryFees = sum(
          entryFills.map((f) =>
            f.feeCurrency && trade.symbol.startsWith(`${f.feeCurrency}/`)
              ? toDecimal(f.fee).times(f.price)
              : toDecimal(f.fee),
          ),
        );
        const feePercent = entryNotional.gt(0) ? entryFees.div(entryNotional).times(100).toFixed() : '0';
        const target = breakEven({ ...trade, ...change }, entryPrice.toFixed(), feePercent, market);
        // A break-even stop already on the wrong side of the market (TP1 pushed at a loss) would fire
        // at once: wait until the price allows it; the next supervision pass looks again.
        const last = (await gateway.fetchTicker(trade.symbol)).last;
        const protective =
          !last || (trade.side === 'long' ? toDecimal(target).lt(last) : toDecimal(target).gt(last));
        if (protective) {
          change.stopLossPrice = target;
          change.stopMovedToBreakEvenAt = new Date();
          log.info({ tradeId: trade.id, stop: change.stopLossPrice }, 'stop moved to break-even after TP1');
        }
      }
    }
    const after = Object.keys(change).length > 0 ? await trades.updateTrade(trade.id, change) : trade;
    return { state: { trade: after, orders, fills }, filledAtOnce };
  }

  /**
   * A `closing` trade whose exit is no longer live (refused, cancelled, expired, lost) while it still holds
   * something: the exit is sent again under the next id of the last exit's retry chain.
   */
  async function resumeStalledExit(gateway: ExchangeGateway, state: TradeState): Promise<TradeState> {
    const exits = state.orders.filter((o) => o.role !== 'entry' && !isTakeProfitRole(o.role));
    if (exits.some((o) => o.status === 'new' || isOpenState(o.status))) return state;
    if (heldQuantity(state.trade, state.fills).lte(0)) return state;
    const last = exits.at(-1);
    try {
      await releaseSpotStop(gateway, state.trade.id);
      state = await lifecycle.closeState(
        gateway,
        state,
        last?.clientOrderId ?? tradeClientOrderId(state.trade.id, 'exit'),
        state.trade.closeReason ?? 'closed',
        last?.role ?? 'exit',
      );
    } catch (e) {
      log.warn({ err: e, tradeId: state.trade.id }, 'could not resume the exit of a closing trade');
      state = (await lifecycle.loadState(state.trade.id))!;
    }
    const stalled =
      state.trade.status === 'closing' &&
      !state.orders.some((o) => o.role !== 'entry' && (o.status === 'new' || isOpenState(o.status))) &&
      heldQuantity(state.trade, state.fills).gt(0);
    if (!stalled) return state;
    // Nothing could be sent (nothing free to sell, the venue refusing): back to open, watched by its stop.
    log.warn(
      { tradeId: state.trade.id },
      'a closing trade has no live exit: open again, watched by its stop',
    );
    return { ...state, trade: await trades.updateTrade(state.trade.id, { status: 'open' }) };
  }

  /**
   * A spot stop-limit that triggered works a limit order: in a fall faster than its offset the price leaves the
   * limit behind and the position is unprotected. Once it has rested `STOP_LIMIT_CHASE_MS` without filling
   * in full, it is cancelled; the stalled exit then goes at market for what is left (`resumeStalledExit`).
   */
  async function chaseStopLimit(gateway: ExchangeGateway, state: TradeState): Promise<TradeState> {
    const stale = state.orders.filter(
      (o) =>
        o.role === 'stop' &&
        o.type === 'limit' &&
        isOpenState(o.status) &&
        now() - o.createdAt.getTime() > STOP_LIMIT_CHASE_MS,
    );
    if (stale.length === 0) return state;
    for (const order of stale) {
      try {
        log.warn(
          { tradeId: state.trade.id, orderId: order.id },
          'stop-limit left behind by the price: exiting at market',
        );
        await executor.cancel(gateway, order);
      } catch (e) {
        log.warn({ err: e, tradeId: state.trade.id }, 'could not cancel a stop-limit left behind');
      }
    }
    return (await lifecycle.loadState(state.trade.id))!;
  }

  /** A trade that ended: nothing of it left resting, and its bot out. */
  async function settleEndedTrade(gateway: ExchangeGateway, trade: TradeDbRow, orders: OrderRow[]) {
    // Its venue stop goes last: it covered the position until the exit was done.
    await deps.venueStops?.retire(gateway, trade.id);
    for (const order of orders) {
      if (order.status === 'new') await trades.deleteUnsentOrder(order.id);
      else if (isOpenState(order.status) && order.role !== 'entry') await executor.cancel(gateway, order);
    }
    if (trade.botId) await deps.botPositions.outUnlessTrading(trade.botId);
    return trade;
  }

  /**
   * Under the trade lock. `known`: the caller's gateway, and the trade's state when the caller has just
   * read or written all of it under this same lock; otherwise it is read here, once.
   */
  async function superviseLocked(
    tradeId: string,
    known: { gateway?: ExchangeGateway; state?: TradeState } = {},
  ): Promise<TradeDbRow | undefined> {
    let state = known.state ?? (await lifecycle.loadState(tradeId));
    if (!state) return undefined;
    const gateway = known.gateway ?? (await gatewayFor(state.trade));
    const market = await findMarket(gateway, state.trade.symbol);
    if (isTradeActive(state.trade.status) || state.trade.status === 'error') {
      if (await resumeUnsentOrders(gateway, state, market)) state = (await lifecycle.loadState(tradeId))!;
      state = { ...state, trade: await lifecycle.settleFigures(state, market) };
      // A trade marked failed that holds a position after all (the venue executed what looked refused, a
      // lost entry found): it is open again, so its stop and ladder cover what it holds.
      if (state.trade.status === 'error' && heldQuantity(state.trade, state.fills).gt(0)) {
        log.warn({ tradeId, error: state.trade.error }, 'a failed trade holds a position: open again');
        state = { ...state, trade: await trades.updateTrade(tradeId, { status: 'open', closedAt: null }) };
      }
      if (state.trade.status === 'closing') {
        state = await chaseStopLimit(gateway, state);
        state = await resumeStalledExit(gateway, state);
      }
      if (state.trade.status === 'open') {
        const managed = await manageOpenTrade(gateway, state, market);
        state = managed.filledAtOnce ? (await lifecycle.loadState(tradeId))! : managed.state;
        state = { ...state, trade: await lifecycle.settleFigures(state, market) };
        if (state.trade.status === 'open' && deps.venueStops) {
          try {
            await deps.venueStops.ensure(gateway, state, market);
          } catch (e) {
            // The price watch covers the trade; the next pass tries again.
            log.warn({ err: e, tradeId }, 'could not set the stop on the venue');
          }
        }
      }
    }
    // An ended trade's figures can still move: funding booked after its close (issue 19).
    if (state.trade.status === 'closed')
      state = { ...state, trade: await lifecycle.settleFigures(state, market) };
    const trade = state.trade;
    if (trade.status === 'closed' || trade.status === 'cancelled')
      return settleEndedTrade(gateway, trade, state.orders);
    return trade;
  }

  async function supervise(tradeId: string): Promise<TradeDbRow | undefined> {
    return lock.withTrade(tradeId, () => superviseLocked(tradeId));
  }

  /**
   * A spot stop resting on the venue holds the coins an exit sells: it is cancelled first (the exit is the
   * protection now; an exit that fails leaves the trade open and the next pass places the stop again). A
   * futures stop is reduce-only and holds nothing: it stays until the exit filled.
   */
  async function releaseSpotStop(gateway: ExchangeGateway, tradeId: string) {
    if (gateway.marketType === 'spot') await deps.venueStops?.retire(gateway, tradeId);
  }

  /** Exits under the lock from the state read there, then follows through on what the exit left. */
  async function closeLocked(
    gateway: ExchangeGateway,
    state: TradeState,
    clientOrderId: string,
    reason: CloseReason,
    role: string,
  ) {
    await releaseSpotStop(gateway, state.trade.id);
    const after = await lifecycle.closeState(gateway, state, clientOrderId, reason, role);
    return (await superviseLocked(state.trade.id, { gateway, state: after }))!;
  }

  /**
   * Exits at market (stop hit, user's "complete") under the trade lock, then supervises. `stillWanted`
   * re-checks the reason on the trade as it is once the lock is held (a stop moved meanwhile).
   */
  async function closeTrade(
    tradeId: string,
    clientOrderId: string,
    reason: CloseReason,
    role = 'exit',
    stillWanted: (trade: TradeDbRow) => boolean = () => true,
  ) {
    return lock.withTrade(tradeId, async () => {
      const state = (await lifecycle.loadState(tradeId))!;
      if (!stillWanted(state.trade)) return state.trade;
      return closeLocked(await gatewayFor(state.trade), state, clientOrderId, reason, role);
    });
  }

  /** News about one of our orders (a venue event or a poll), applied then followed through. */
  async function onVenueOrder(row: OrderRow, apply: (gateway: ExchangeGateway) => Promise<unknown>) {
    return lock.withTrade(row.tradeId, async () => {
      const trade = await trades.findById(row.tradeId);
      if (!trade) return undefined;
      await apply(await gatewayFor(trade));
      return superviseLocked(row.tradeId);
    });
  }

  /**
   * What follows a new trade's entry: its take-profit ladder and stop, under the trade lock. Never throws:
   * the entry stands, and a ladder not placed is placed by the next reconciliation sweep.
   */
  async function setUpAfterEntry(gateway: ExchangeGateway, trade: TradeDbRow): Promise<TradeDbRow> {
    // Nothing to follow up: no lock, no reads.
    if (!needsSetUp(trade)) return trade;
    try {
      return (await lock.withTrade(trade.id, () => superviseLocked(trade.id, { gateway }))) ?? trade;
    } catch (e) {
      log.warn({ err: e, tradeId: trade.id }, 'could not set up the trade after its entry');
      return trade;
    }
  }

  /**
   * `setUpAfterEntry` for many new trades (an alert's fan-out): their locks taken together and their
   * set-ups run side by side, so the statements and venue calls they make go out in batches. A trade
   * locked elsewhere at that moment is set up alone after the group. Never throws.
   */
  async function setUpAfterEntries(items: readonly { gateway: ExchangeGateway; trade: TradeDbRow }[]) {
    const wanted = items.filter(({ trade }) => needsSetUp(trade));
    const byId = new Map(wanted.map((item) => [item.trade.id, item]));
    let rest: readonly string[] = [...byId.keys()];
    try {
      await lock.withTrades([...byId.keys()], async (locked) => {
        const held = new Set(locked);
        rest = [...byId.keys()].filter((id) => !held.has(id));
        await Promise.all(
          locked.map((id) =>
            superviseLocked(id, { gateway: byId.get(id)!.gateway }).catch((e: unknown) =>
              log.warn({ err: e, tradeId: id }, 'could not set up the trade after its entry'),
            ),
          ),
        );
      });
    } catch (e) {
      // The group's lock could not be taken (the database): each is tried alone below.
      log.warn({ err: e }, 'could not lock the set-ups together');
    }
    for (const id of rest) await setUpAfterEntry(byId.get(id)!.gateway, byId.get(id)!.trade);
  }

  /** An open trade with no ladder and no stop has nothing to follow up. */
  const needsSetUp = (trade: TradeDbRow) =>
    !(trade.status === 'open' && trade.takeProfits.length === 0 && !trade.stopLossPercent);

  /**
   * An entry whose ladder comes later (the alert fan-out): the trade's stop is set from its fill price at
   * once — it needs no venue call, and the stop-loss watch guards the trade from then on.
   */
  async function openWithStop(gateway: ExchangeGateway, req: OpenRequest): Promise<TradeDbRow> {
    const trade = await lifecycle.open(gateway, req);
    if (trade.status !== 'open' || !trade.entryPrice) return trade;
    try {
      const stop = initialStop(trade, trade.entryPrice, await findMarket(gateway, trade.symbol));
      return stop && (await trades.setInitialStop(trade.id, stop))
        ? { ...trade, stopLossPrice: stop }
        : trade;
    } catch (e) {
      // The set-up after the fan-out sets it (it sets any stop still missing).
      log.warn({ err: e, tradeId: trade.id }, 'could not set the stop after the entry');
      return trade;
    }
  }

  /**
   * The lifecycle as the bots service and manual trades use it: the same calls, each followed by
   * supervision (an entry gets its ladder at once), with exits under the trade lock.
   */
  const managedLifecycle: TradeLifecycle = {
    ...lifecycle,
    async open(gateway, req) {
      return setUpAfterEntry(gateway, await lifecycle.open(gateway, req));
    },
    async close(gateway, trade, clientOrderId, reason, role = 'exit') {
      return lock.withTrade(trade.id, async () => {
        const state = await lifecycle.loadState(trade.id);
        if (!state) return trade;
        // The caller's row may be old: a trade that ended meanwhile (stop, take profit) is only settled.
        if (!isTradeActive(state.trade.status)) return (await superviseLocked(trade.id, { gateway, state }))!;
        return closeLocked(gateway, state, clientOrderId, reason, role);
      });
    },
  };

  /**
   * A bot stopped with its position (the user's stop, the admin's close): its open trade exits at market
   * through the one exit path. The bot is out once the trade ended (supervision sets it), not before: an
   * exit refused or still filling leaves the bot holding its position, still watched.
   */
  async function closeBotTrade(botId: string, reason: CloseReason): Promise<TradeDbRow | undefined> {
    const trade = await trades.findOpenForBot(botId);
    if (!trade) {
      await deps.botPositions.outUnlessTrading(botId);
      return undefined;
    }
    return managedLifecycle.close(
      await gatewayFor(trade),
      trade,
      tradeClientOrderId(trade.id, 'bot-stop'),
      reason,
    );
  }

  /** Client order id of the stop's market exit: one per trade, whoever triggers it. */
  const stopClientOrderId = (tradeId: string) => tradeClientOrderId(tradeId, 'stop');

  return {
    supervise,
    closeTrade,
    closeBotTrade,
    onVenueOrder,
    gatewayFor,
    managedLifecycle,
    openWithStop,
    setUpAfterEntry,
    setUpAfterEntries,
    stopClientOrderId,
  };
}
