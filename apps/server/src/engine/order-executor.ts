import { isOpenState, isTerminal, reconcileOrderState, retryChain, sum, toDecimal } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import { OrderNotFoundError, RetryableExchangeError, UnknownOutcomeError } from '../exchange/errors';
import type { ExchangeGateway, Fill, Order } from '../exchange/gateway';
import type { OrderRow, TradeDbRow, TradeFigures, TradeFillRow, TradesRepo } from './trades-repo';
import type { AccountReadiness } from './account-readiness';
import { feeRatesOf, type FeeRates } from './fee-rates';
import { NO_LAST_ERROR, codedError, venueCallError } from './last-error';

/**
 * How long an order that may have left is looked up (it may be in flight, or the venue slow to list it)
 * before it is declared lost and sent again under a new client order id (DESIGN §6: several lookups over
 * at least 30 s).
 */
export const UNRESOLVED_GRACE_MS = 30_000;
/** An order the venue never received (issue 21: with its code, so the web says it in the user's language). */
export const LOST_ORDER = codedError('ORDER_LOST');
const FORGOTTEN_ORDER = codedError('ORDER_FORGOTTEN');

/** An order whose outcome is not known yet: looked up again later, never re-sent meanwhile. */
export class UnresolvedOrderError extends UnknownOutcomeError {
  constructor(
    message: string,
    /** When it can be declared lost if the venue still does not show it. */
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/** A fill as the engine decides on it (what `fillsOfTrade` returns, less the row id). */
export type KnownFill = Omit<TradeFillRow, 'id'>;

/**
 * An order as committed after a venue answer, with all of its fills when that answer listed them
 * (they are stored), and its trade when the caller's figures were written with it: callers that know
 * the rest of the trade need not read it back.
 */
export type AppliedOrder = { order: OrderRow; fills?: KnownFill[]; trade?: TradeDbRow };

/**
 * What the caller's trade becomes once this order is as given with these (all of its) fills: written in
 * the same statement as the order. Undefined: nothing to write with it.
 */
export type TradeFollowUp = (
  order: OrderRow,
  fills: KnownFill[],
) => { figures: TradeFigures; end?: Pick<TradeDbRow, 'status' | 'closedAt' | 'closeReason'> } | undefined;

/**
 * The only place orders reach a venue. The order row (with its deterministic client order id)
 * is committed before the call; a row seen again — retried alert, crash, timeout — is first
 * looked up at the venue by that id, so an order is never placed twice.
 */
export type OrderExecutor = ReturnType<typeof createOrderExecutor>;

export function createOrderExecutor(deps: {
  trades: TradesRepo;
  log: FastifyBaseLogger;
  /** No new order for an account until its orders were reconciled once (DESIGN §6). */
  readiness?: Pick<AccountReadiness, 'awaitReady'>;
  now?: () => number;
}) {
  const { trades } = deps;

  /**
   * Brings our row in line with what the venue says, and stores any new fills. Decided on the row as
   * committed now: news older than what we know (a late event, a slow poll) changes nothing. The row
   * the caller holds is tried first (one conditional update); if it moved meanwhile, under a row lock.
   */
  async function apply(
    gateway: ExchangeGateway,
    row: OrderRow,
    venue: Order,
    followUp?: TradeFollowUp,
  ): Promise<AppliedOrder> {
    const decide = (current: OrderRow) => {
      const stale =
        toDecimal(venue.filled).lt(current.filled) ||
        (isTerminal(current.status) && !isTerminal(venue.status));
      if (stale) return null;
      const { state } = reconcileOrderState(current.status, venue.status);
      return {
        status: state,
        venueOrderId: venue.venueOrderId,
        filled: venue.filled,
        average: venue.average,
        price: venue.price ?? current.price,
        ...NO_LAST_ERROR,
      };
    };
    // Fills listed with the answer are stored as they are (deduped by venue trade id), with the order's
    // change when it applies to the row we hold; when they are all of the order's fills, nothing needs
    // fetching and the caller learns them.
    const listed = venue.fills?.filter((f) => f.venueOrderId === venue.venueOrderId);
    const rates = await feeRatesOf(gateway, row.symbol, listed ?? []);
    const listedRows = (listed ?? []).map((f) => fillRow(row, f, rates));
    const known = (order: OrderRow) =>
      listed!.map((f) => ({ ...fillRow(order, f, rates), side: order.side, role: order.role }));
    const change = decide(row);
    const allListed = listed !== undefined && sum(listed.map((f) => f.amount)).eq(venue.filled);
    const expected = change && ({ ...row, ...change } as OrderRow);
    const follow = expected && allListed && followUp?.(expected, known(expected));
    if (change && follow) {
      const written = await trades.updateOrderWithFigures(
        row,
        change,
        listedRows,
        follow.figures,
        follow.end,
      );
      if (written) return { order: written.order, fills: known(written.order), trade: written.trade };
    }
    let updated =
      change && !follow ? await trades.updateOrderIfUnchanged(row, change, listedRows) : undefined;
    if (!change && listedRows.length > 0) await trades.insertFills(listedRows);
    updated ??= await trades.updateOrderLocked(row.id, decide);

    if (allListed && toDecimal(updated.filled).eq(venue.filled))
      return { order: updated, fills: known(updated) };
    if (
      toDecimal(updated.filled).gt(0) &&
      toDecimal(updated.filled).gt(await trades.filledOfOrder(updated.id))
    )
      await settleFills(gateway, updated);
    return { order: updated };
  }

  async function applyVenueOrder(gateway: ExchangeGateway, row: OrderRow, venue: Order): Promise<OrderRow> {
    return (await apply(gateway, row, venue)).order;
  }

  function fillRow(row: OrderRow, f: Fill, rates: FeeRates) {
    return {
      inferred: false,
      orderId: row.id,
      tradeId: row.tradeId,
      venueTradeId: f.venueTradeId,
      price: f.price,
      amount: f.amount,
      fee: f.fee,
      feeCurrency: f.feeCurrency,
      feeRate: (f.feeCurrency && rates[f.feeCurrency]) || null,
      at: new Date(f.timestamp),
    };
  }

  /**
   * Makes the order's stored fills add up to its `filled` (the venue's order state is the source of truth
   * for quantity): its fills are asked for by order, stored (deduped by venue trade id), and whatever the
   * venue does not list yet is held by one inferred fill at the order's average price, replaced once the
   * venue lists the rest. A failed lookup changes nothing: the order is revisited (reconciliation).
   */
  async function settleFills(gateway: ExchangeGateway, row: OrderRow): Promise<boolean> {
    if (!row.venueOrderId) return false;
    let listed: Fill[] = [];
    try {
      listed = await gateway.fetchOrderFills(row.venueOrderId, row.symbol, row.createdAt.getTime() - 60_000);
    } catch (e) {
      deps.log.warn({ err: e, orderId: row.id }, 'could not read the fills of an order; revisited later');
    }
    const own = listed.filter((f) => f.venueOrderId === row.venueOrderId);
    const rates = await feeRatesOf(gateway, row.symbol, own);
    const added = await trades.settleOrderFills(
      row,
      own.map((f) => fillRow(row, f, rates)),
    );
    return added > 0;
  }

  const now = deps.now ?? Date.now;

  /**
   * Decides on an order that may have left for the venue and that the venue does not show (a lookup by
   * client order id found nothing). Within the lookup grace it is still in flight or the venue is slow to
   * list it: an `UnresolvedOrderError` asks the caller to look again later. Once the grace is over it is
   * lost: the row is marked rejected and a new attempt is committed under the next id of its retry chain.
   */
  async function settleNotFound(row: OrderRow): Promise<OrderRow> {
    // Refused before without executing (a rate limit): sent again under the same id.
    if (row.status === 'submitted' && row.lastError) return row;
    const waited = now() - row.updatedAt.getTime();
    if (waited < UNRESOLVED_GRACE_MS)
      throw new UnresolvedOrderError(
        `Order ${row.clientOrderId} is not listed by the venue yet; looked up again before anything is resent`,
        UNRESOLVED_GRACE_MS - waited + 1_000,
      );
    const lost = await trades.updateOrderLocked(row.id, (current) =>
      current.status === row.status && current.venueOrderId === null
        ? { status: 'rejected', ...LOST_ORDER }
        : null,
    );
    if (lost.status !== 'rejected') return lost; // settled meanwhile by someone else
    const { attempts, next } = retryChain(row.clientOrderId, await trades.ordersOfTrade(row.tradeId));
    const live = attempts.find((o) => o.id !== row.id && (o.status === 'new' || isOpenState(o.status)));
    if (live) return live;
    const { order } = await trades.insertOrder({
      tradeId: row.tradeId,
      userId: row.userId,
      tradingAccountId: row.tradingAccountId,
      clientOrderId: next,
      role: row.role,
      symbol: row.symbol,
      side: row.side,
      type: row.type,
      price: row.price,
      reduceOnly: row.reduceOnly,
      amount: row.amount,
      status: 'new',
    });
    return order;
  }

  /**
   * Sends the order unless the venue already has it. `created`: the caller committed this row just now
   * and nobody sent it (a `new` row, or an entry committed as `submitted`), so there is nothing to look
   * up first. A row that may have left before (`submitted`, `unknown`) is looked up by client order id and
   * never re-sent under it: see `settleNotFound`. Venue errors other than an unknown outcome mark the row
   * rejected and are rethrown.
   */
  async function place(
    gateway: ExchangeGateway,
    row: OrderRow,
    created: boolean,
    followUp?: TradeFollowUp,
  ): Promise<AppliedOrder> {
    if (!['new', 'submitted', 'unknown'].includes(row.status)) return { order: row }; // already settled
    if (!created && row.status !== 'new') {
      try {
        const existing = await gateway.fetchOrderByClientId(row.clientOrderId, row.symbol);
        return await apply(gateway, row, existing, followUp);
      } catch (e) {
        if (!(e instanceof OrderNotFoundError)) throw e;
      }
      // A venue in our own database has no request in flight: what it does not show, it never got.
      if (!gateway.sharesDatabase) {
        row = await settleNotFound(row);
        if (row.status !== 'new' && !(row.status === 'submitted' && row.lastError)) return { order: row };
      }
    }
    await deps.readiness?.awaitReady(row.tradingAccountId);
    // From here on it may be at the venue: a `submitted` row without an error is never re-sent blindly.
    if (row.status === 'new' || row.lastError)
      row = await trades.updateOrder(row.id, { status: 'submitted', ...NO_LAST_ERROR });
    try {
      const venue = await gateway.createOrder({
        symbol: row.symbol,
        side: row.side,
        type: row.type,
        amount: row.amount,
        ...(row.price && row.type === 'limit' ? { price: row.price } : {}),
        reduceOnly: row.reduceOnly,
        clientOrderId: row.clientOrderId,
      });
      return await apply(gateway, row, venue, followUp);
    } catch (e) {
      if (e instanceof UnknownOutcomeError) {
        // Never assumed failed: looked up by client order id (reconciliation, the next attempt).
        await trades.updateOrder(row.id, { status: 'unknown', ...venueCallError(e) });
        throw e;
      }
      const error = venueCallError(e);
      const retryable = e instanceof RetryableExchangeError;
      await trades.updateOrder(row.id, retryable ? error : { status: 'rejected', ...error });
      throw e;
    }
  }

  return {
    applyVenueOrder,
    place,
    settleFills,

    /** No new order for the account until its orders were reconciled once (no round trip once open). */
    async awaitReady(accountId: string): Promise<void> {
      await deps.readiness?.awaitReady(accountId);
    },

    async submit(gateway: ExchangeGateway, row: OrderRow, created: boolean): Promise<OrderRow> {
      return (await place(gateway, row, created)).order;
    },

    /**
     * Cancels a live order and returns its row as the venue then shows it (it may have filled meanwhile).
     * An order the venue no longer knows at all — never received, or forgotten long after it ended (Binance
     * USD-M drops cancelled orders after some days) — is marked cancelled with what we knew of its fills.
     * An unanswered cancel throws `UnknownOutcomeError`: the caller leaves the order as it was.
     */
    async cancel(gateway: ExchangeGateway, row: OrderRow): Promise<OrderRow> {
      // Not found by cancel nor lookup. Freshly placed or changed: the venue may not list it yet (it is
      // looked up again next pass). Long settled: the venue forgot an order that ended long ago.
      const forgotten = async () => {
        const waited = now() - row.updatedAt.getTime();
        if (waited < UNRESOLVED_GRACE_MS)
          throw new UnresolvedOrderError(
            `Order ${row.clientOrderId} is not found by the venue yet; looked up again before it is given up`,
            UNRESOLVED_GRACE_MS - waited + 1_000,
          );
        return trades.updateOrderLocked(row.id, (current) =>
          isTerminal(current.status) ? null : { status: 'cancelled', ...FORGOTTEN_ORDER },
        );
      };
      if (!row.venueOrderId) {
        // Never acknowledged: if the venue has it after all, cancel it there.
        try {
          const found = await gateway.fetchOrderByClientId(row.clientOrderId, row.symbol);
          row = await applyVenueOrder(gateway, row, found);
        } catch (e) {
          if (e instanceof OrderNotFoundError) return forgotten();
          throw e;
        }
      }
      if (!['open', 'partially_filled', 'submitted', 'unknown'].includes(row.status)) return row;
      try {
        const venue = await gateway.cancelOrder(row.venueOrderId!, row.symbol);
        return await applyVenueOrder(gateway, row, venue);
      } catch (e) {
        if (!(e instanceof OrderNotFoundError)) throw e;
        try {
          const venue = await gateway.fetchOrder(row.venueOrderId!, row.symbol);
          return await applyVenueOrder(gateway, row, venue);
        } catch (lookup) {
          if (lookup instanceof OrderNotFoundError) return forgotten();
          throw lookup;
        }
      }
    },
  };
}
