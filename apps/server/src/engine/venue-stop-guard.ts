import {
  type Decimal,
  isOpenState,
  orderMinimumViolation,
  isTakeProfitRole,
  stopLimitPrice,
  sum,
  toDecimal,
  toNumericString,
  tradeClientOrderId,
} from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import { InvalidOrderError, OrderNotFoundError, RateLimitedError } from '../exchange/errors';
import { FALLBACK_TICK, type ExchangeGateway, type Market, type StopOrder } from '../exchange/gateway';
import { UNRESOLVED_GRACE_MS } from './order-executor';
import { NO_LAST_ERROR, codedError, venueCallError } from './last-error';
import type { TradeState } from './trade-lifecycle';
import { sellableQuantity } from './trades-fns';
import type { TradeDbRow, TradesRepo } from './trades-repo';
import { LIVE_STOP_STATES, type VenueStopRow, type VenueStopsRepo } from './venue-stops-repo';

/** A placement of the same stop that the venue refused is tried again only after this long (the watch covers). */
export const REFUSED_STOP_RETRY_MS = 60_000;

/** A spot stop-limit's limit past its trigger when the trade carries no offset of its strategy's. */
export const DEFAULT_STOP_LIMIT_OFFSET_PERCENT = '0.5';

/** Marks a stop the venue once said it does not have (see `notFound`). */
const NOT_FOUND_ONCE = codedError('STOP_NOT_FOUND_ONCE');
const LOST_STOP = codedError('STOP_LOST');
const GONE_STOP = codedError('STOP_GONE');
/** Whether the stop carries the mark (read from its text: rows written before errors had codes carry it too). */
const markedNotFound = (row: VenueStopRow) => row.lastError === NOT_FOUND_ONCE.lastError;

export type VenueStopGuard = ReturnType<typeof createVenueStopGuard>;

/**
 * The stop-loss resting on the venue (issue 18), where the venue has stop orders: it protects the position
 * while Kairos, its database or its network are down. Runs under the trade lock, from the supervisor.
 *
 * - An open trade holding something with a stop price gets a reduce-only stop of what it holds at that price.
 * - A moved stop (break-even, a manual change) or a changed size (a take-profit filled) is a new placement:
 *   the new stop is acknowledged before the old one is cancelled, so the position is never without one; a
 *   refused placement leaves the old stop in place and the price watch covers the trade.
 * - A stop found triggered (reconciliation, the watch) is booked as the trade's exit: the market order it
 *   became is an `orders` row whose fills reconciliation reads like any other's.
 * - An ended trade's stops are cancelled.
 * Every placement has its own client order id, committed before the call; an unanswered one is looked up by
 * it, never sent twice.
 */
export function createVenueStopGuard(deps: {
  stops: VenueStopsRepo;
  trades: Pick<TradesRepo, 'findById' | 'insertOrder' | 'updateTrade'>;
  log: FastifyBaseLogger;
  now?: () => number;
}) {
  const { stops, trades, log } = deps;
  const now = deps.now ?? Date.now;
  const age = (row: VenueStopRow) => now() - row.updatedAt.getTime();

  /** Writes what the venue says of a stop; a triggered one is booked as the trade's exit. */
  async function apply(row: VenueStopRow, stop: StopOrder): Promise<VenueStopRow> {
    const status: VenueStopRow['status'] = stop.status;
    const changed =
      row.status !== status ||
      row.venueOrderId !== stop.venueOrderId ||
      row.triggeredOrderId !== stop.triggeredOrderId ||
      markedNotFound(row);
    const updated = changed
      ? await stops.update(row.id, {
          status,
          venueOrderId: stop.venueOrderId,
          triggeredOrderId: stop.triggeredOrderId,
          ...(markedNotFound(row) ? NO_LAST_ERROR : {}),
        })
      : row;
    if (status === 'triggered' && stop.triggeredOrderId)
      await bookTriggered(updated, stop.triggeredOrderId, stop.limitPrice ?? null);
    return updated;
  }

  /**
   * The market order a triggered stop became, as the trade's exit: reconciliation reads its fills; the trade is
   * closing for "stop loss" (closed once the fills say it holds nothing).
   */
  async function bookTriggered(row: VenueStopRow, triggeredOrderId: string, limitPrice: string | null) {
    const trade = await trades.findById(row.tradeId);
    if (!trade) return;
    const { created } = await trades.insertOrder({
      tradeId: trade.id,
      userId: trade.userId,
      tradingAccountId: trade.tradingAccountId,
      clientOrderId: tradeClientOrderId(trade.id, 'venue-stop-exit', row.clientOrderId),
      venueOrderId: triggeredOrderId,
      role: 'stop',
      symbol: row.symbol,
      side: row.side,
      // A spot stop-limit becomes a limit order at its limit; a futures stop a reduce-only market order.
      ...(limitPrice
        ? { type: 'limit' as const, price: limitPrice, reduceOnly: false }
        : { type: 'market' as const, reduceOnly: true }),
      amount: row.amount,
      status: 'open',
    });
    if (!created) return;
    log.info(
      { tradeId: trade.id, stop: row.triggerPrice, orderId: triggeredOrderId },
      'venue stop triggered',
    );
    if (trade.status === 'open')
      await trades.updateTrade(trade.id, { status: 'closing', closeReason: 'stop loss' });
  }

  /** What the venue answers of a stop, written; "no such stop" goes through `notFound`. */
  async function readBack(row: VenueStopRow, call: () => Promise<StopOrder>): Promise<VenueStopRow> {
    try {
      return await apply(row, await call());
    } catch (e) {
      if (!(e instanceof OrderNotFoundError)) throw e;
      return notFound(row);
    }
  }

  /** A placement sent without an answer: looked up by its client id once it had time to arrive. */
  async function resolve(gateway: ExchangeGateway, row: VenueStopRow): Promise<VenueStopRow> {
    const venue = gateway.stops;
    if (!venue) return row;
    return readBack(row, () =>
      row.venueOrderId
        ? venue.fetchStop(row.venueOrderId, row.symbol)
        : venue.fetchStopByClientId(row.clientOrderId, row.symbol),
    );
  }

  /**
   * The venue says it has no such stop. For one it acknowledged, a single such answer is not believed (venues
   * answer so while an order moves between their services): the stop is taken for gone only when the venue
   * still says so after the grace period. One never acknowledged is taken as never received after it.
   */
  async function notFound(row: VenueStopRow): Promise<VenueStopRow> {
    if (!row.venueOrderId)
      return age(row) > UNRESOLVED_GRACE_MS
        ? stops.update(row.id, { status: 'rejected', ...LOST_STOP })
        : row;
    if (!markedNotFound(row)) return stops.update(row.id, NOT_FOUND_ONCE);
    if (age(row) <= UNRESOLVED_GRACE_MS) return row;
    return stops.update(row.id, { status: 'cancelled', ...GONE_STOP });
  }

  /** Places one stop (committed first); its answer, or what is known of it, is written. */
  async function place(
    gateway: ExchangeGateway,
    trade: TradeDbRow,
    seq: number,
    triggerPrice: string,
    amount: string,
    limitPrice: string | undefined,
  ): Promise<VenueStopRow> {
    const clientOrderId = tradeClientOrderId(trade.id, 'venue-stop', seq);
    const side = trade.side === 'long' ? ('sell' as const) : ('buy' as const);
    const { row, created } = await stops.insert({
      tradeId: trade.id,
      tradingAccountId: trade.tradingAccountId,
      clientOrderId,
      symbol: trade.symbol,
      side,
      triggerPrice,
      amount,
      status: 'submitted',
    });
    if (!created) return resolve(gateway, row);
    try {
      const stop = await gateway.stops!.placeStop({
        symbol: trade.symbol,
        side,
        amount,
        triggerPrice,
        clientOrderId,
        ...(limitPrice ? { limitPrice } : {}),
      });
      return apply(row, stop);
    } catch (e) {
      const error = venueCallError(e);
      // Refused (too close to the price, no position, rate limited): nothing rests; the watch covers.
      if (e instanceof InvalidOrderError || e instanceof RateLimitedError) {
        log.warn(
          { tradeId: trade.id, err: e },
          'the venue refused the stop; the price watch covers the trade',
        );
        return stops.update(row.id, { status: 'rejected', ...error });
      }
      // No answer (UnknownOutcomeError) or any other failure: it may rest there; looked up by its client id
      // on the next pass, never sent again blindly.
      return stops.update(row.id, { status: 'unknown', ...error });
    }
  }

  async function cancel(gateway: ExchangeGateway, row: VenueStopRow): Promise<VenueStopRow> {
    const venueOrderId = row.venueOrderId;
    if (!venueOrderId) return resolve(gateway, row);
    return readBack(row, () => gateway.stops!.cancelStop(venueOrderId, row.symbol));
  }

  /**
   * An open trade's stop, on the venue at the trade's stop price for what the trade holds (see above). A
   * refused placement is recorded, not thrown; a lookup or database failure throws, and the caller leaves the
   * trade to the watch until the next pass tries again.
   */
  async function ensure(gateway: ExchangeGateway, state: TradeState, market: Market): Promise<void> {
    const { trade } = state;
    if (!gateway.stops || trade.status !== 'open') return;
    if (!trade.stopLossPrice) {
      // The user removed the stop: nothing of it may rest on the venue.
      for (const row of await stops.ofTrade(trade.id)) if (row.status === 'open') await cancel(gateway, row);
      return;
    }
    const spot = gateway.marketType === 'spot';
    // A spot stop locks the coins it would sell: an entry still filling waits for its ladder to take its
    // share first (the watch covers meanwhile).
    if (spot && state.orders.some((o) => o.role === 'entry' && (o.status === 'new' || isOpenState(o.status))))
      return;
    const amount = stopAmount(trade, state, market, spot);
    if (amount.lte(0)) return;
    // Placements sent without an answer are looked up first (one unanswered for long enough, or unknown).
    const rows = await Promise.all(
      (await stops.ofTrade(trade.id)).map((row) =>
        row.status === 'unknown' || (row.status === 'submitted' && age(row) > UNRESOLVED_GRACE_MS)
          ? resolve(gateway, row)
          : row,
      ),
    );
    if (rows.some((r) => r.status === 'triggered')) return; // its exit is booked; supervision follows it
    // A placement still unanswered: wait for it rather than risk a second stop.
    if (rows.some((r) => r.status === 'submitted' || r.status === 'unknown')) return;
    const fits = (r: VenueStopRow) =>
      toDecimal(r.triggerPrice).eq(trade.stopLossPrice!) && toDecimal(r.amount).eq(amount);
    const open = rows.filter((r) => r.status === 'open');
    let current = open.find(fits);
    if (!current) {
      const refused = rows.findLast((r) => r.status === 'rejected' && fits(r));
      if (refused && age(refused) < REFUSED_STOP_RETRY_MS) return;
      // On spot the old stop holds the coins the new one sells: it goes first (the watch covers the gap); one
      // that triggered or could not be cancelled meanwhile leaves nothing to place.
      if (spot) for (const old of open) if ((await cancel(gateway, old)).status !== 'cancelled') return;
      const side = trade.side === 'long' ? ('sell' as const) : ('buy' as const);
      const limitPrice = spot
        ? toNumericString(
            stopLimitPrice({
              side,
              triggerPrice: trade.stopLossPrice,
              offsetPercent: trade.stopLimitOffsetPercent ?? DEFAULT_STOP_LIMIT_OFFSET_PERCENT,
              priceTick: market.priceTick ?? FALLBACK_TICK,
            }),
          )
        : undefined;
      current = await place(gateway, trade, rows.length, trade.stopLossPrice, amount.toFixed(), limitPrice);
      if (current.status !== 'open') return;
    }
    // The new stop rests: the ones it replaces go (a stop triggered meanwhile is booked by `apply`).
    for (const old of open.filter((r) => r.id !== current.id)) await cancel(gateway, old);
  }

  /**
   * What the stop sells: what the trade holds (to the venue's step); on spot less what its resting take-profits
   * hold locked (they sell those coins; until one fills, that part is watched by Kairos), and nothing when the
   * rest is under the venue's minimums.
   */
  function stopAmount(trade: TradeDbRow, state: TradeState, market: Market, spot: boolean): Decimal {
    const held = sellableQuantity(trade, state.fills, market);
    if (!spot || held.lte(0)) return held;
    const reserved = sum(
      state.orders
        .filter((o) => isTakeProfitRole(o.role) && (o.status === 'new' || isOpenState(o.status)))
        .map((o) => toDecimal(o.amount).minus(o.filled)),
    );
    const amount = held.minus(reserved);
    const tooSmall = orderMinimumViolation(amount, trade.stopLossPrice!, {
      minAmount: market.minAmount ?? '0',
      minNotional: market.minNotional ?? '0',
    });
    return amount.lte(0) || tooSmall ? toDecimal(0) : amount;
  }

  /** An ended (or ending) trade's stops cancelled; one that triggered meanwhile is booked. */
  async function retire(gateway: ExchangeGateway, tradeId: string): Promise<void> {
    if (!gateway.stops) return;
    for (const row of await stops.ofTrade(tradeId)) {
      if (!LIVE_STOP_STATES.includes(row.status)) continue;
      try {
        await cancel(gateway, row);
      } catch (e) {
        log.warn({ err: e, tradeId, stopId: row.id }, 'could not cancel the venue stop of an ended trade');
      }
    }
  }

  /**
   * The account's stops read back from the venue (reconciliation sweeps, start-up): a triggered one is booked,
   * one cancelled or expired at the venue is marked so (the supervisor places a new one), one an ended trade
   * left resting is cancelled. Returns the trades whose stops changed.
   */
  async function checkAccount(gateway: ExchangeGateway, accountId: string): Promise<Set<string>> {
    const touched = new Set<string>();
    if (!gateway.stops) return touched;
    for (const row of await stops.liveOfAccount(accountId)) {
      try {
        if (row.status !== 'open' && age(row) <= UNRESOLVED_GRACE_MS) continue;
        // A stop left resting by an ended trade (its cancel failed): it would close part of the next trade's
        // position on this symbol. Cancelled now.
        const ended = row.tradeStatus !== 'open' && row.tradeStatus !== 'closing';
        const after = ended ? await cancel(gateway, row) : await resolve(gateway, row);
        if (after.status !== row.status) touched.add(row.tradeId);
      } catch (e) {
        log.warn({ err: e, stopId: row.id, tradeId: row.tradeId }, 'could not read a venue stop back');
      }
    }
    return touched;
  }

  /** One trade's stops read back (the watch saw the price through the stop). True when any changed. */
  async function checkTrade(gateway: ExchangeGateway, tradeId: string): Promise<boolean> {
    let changed = false;
    for (const row of await stops.ofTrade(tradeId)) {
      if (row.status !== 'open') continue;
      const after = await resolve(gateway, row);
      changed ||= after.status !== row.status;
    }
    return changed;
  }

  return { ensure, retire, checkAccount, checkTrade };
}
