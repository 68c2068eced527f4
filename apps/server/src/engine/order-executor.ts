import { isTerminal, reconcileOrderState, sum, toDecimal } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import { OrderNotFoundError, RetryableExchangeError, UnknownOutcomeError } from '../exchange/errors';
import type { ExchangeGateway, Fill, Order } from '../exchange/gateway';
import type {
  OrderRow,
  TradeDbRow,
  TradeFigures,
  TradeFillRow,
  TradesRepo,
} from './trades-repo';
import type { AccountReadiness } from './account-readiness';

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
        lastError: null,
      };
    };
    // Fills listed with the answer are stored as they are (deduped by venue trade id), with the order's
    // change when it applies to the row we hold; when they are all of the order's fills, nothing needs
    // fetching and the caller learns them.
    const listed = venue.fills?.filter((f) => f.venueOrderId === venue.venueOrderId);
    const listedRows = (listed ?? []).map((f) => fillRow(row, f));
    const known = (order: OrderRow) =>
      listed!.map((f) => ({ ...fillRow(order, f), side: order.side, role: order.role }));
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
      await syncFills(gateway, updated);
    return { order: updated };
  }

  async function applyVenueOrder(gateway: ExchangeGateway, row: OrderRow, venue: Order): Promise<OrderRow> {
    return (await apply(gateway, row, venue)).order;
  }

  function fillRow(row: OrderRow, f: Fill) {
    return {
      orderId: row.id,
      tradeId: row.tradeId,
      venueTradeId: f.venueTradeId,
      price: f.price,
      amount: f.amount,
      fee: f.fee,
      feeCurrency: f.feeCurrency,
      at: new Date(f.timestamp),
    };
  }

  async function syncFills(gateway: ExchangeGateway, row: OrderRow): Promise<void> {
    if (!row.venueOrderId) return;
    const since = row.createdAt.getTime() - 60_000;
    const venueFills = (await gateway.fetchMyTrades(row.symbol, since)).filter(
      (f) => f.venueOrderId === row.venueOrderId,
    );
    await trades.insertFills(venueFills.map((f) => fillRow(row, f)));
  }

  /**
   * Sends the order unless the venue already has it. `created`: the caller committed this row just now
   * and nobody sent it (a `new` row, or an entry committed as `submitted`), so there is nothing to look
   * up first. Venue errors other than an unknown outcome mark the row rejected and are rethrown.
   */
  async function place(
    gateway: ExchangeGateway,
    row: OrderRow,
    created: boolean,
    followUp?: TradeFollowUp,
  ): Promise<AppliedOrder> {
    if (!['new', 'submitted', 'unknown'].includes(row.status)) return { order: row }; // already settled
    if (!created) {
      try {
        const existing = await gateway.fetchOrderByClientId(row.clientOrderId, row.symbol);
        return await apply(gateway, row, existing, followUp);
      } catch (e) {
        if (!(e instanceof OrderNotFoundError)) throw e;
        // The venue never got it: place it now.
      }
    }
    await deps.readiness?.awaitReady(row.tradingAccountId);
    if (row.status === 'new') row = await trades.updateOrder(row.id, { status: 'submitted' });
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
        // Never assumed failed: reconciliation settles it by client order id.
        await trades.updateOrder(row.id, { status: 'unknown', lastError: e.message });
        throw e;
      }
      const message = e instanceof Error ? e.message : String(e);
      const retryable = e instanceof RetryableExchangeError;
      await trades.updateOrder(
        row.id,
        retryable ? { lastError: message } : { status: 'rejected', lastError: message },
      );
      throw e;
    }
  }

  return {
    applyVenueOrder,
    place,

    /** No new order for the account until its orders were reconciled once (no round trip once open). */
    async awaitReady(accountId: string): Promise<void> {
      await deps.readiness?.awaitReady(accountId);
    },

    async submit(gateway: ExchangeGateway, row: OrderRow, created: boolean): Promise<OrderRow> {
      return (await place(gateway, row, created)).order;
    },

    async cancel(gateway: ExchangeGateway, row: OrderRow): Promise<OrderRow> {
      if (!row.venueOrderId) {
        // Never acknowledged: if the venue has it after all, cancel it there.
        try {
          const found = await gateway.fetchOrderByClientId(row.clientOrderId, row.symbol);
          row = await applyVenueOrder(gateway, row, found);
        } catch (e) {
          if (e instanceof OrderNotFoundError) return trades.updateOrder(row.id, { status: 'cancelled' });
          throw e;
        }
      }
      if (!['open', 'partially_filled', 'submitted', 'unknown'].includes(row.status)) return row;
      try {
        const venue = await gateway.cancelOrder(row.venueOrderId!, row.symbol);
        return await applyVenueOrder(gateway, row, venue);
      } catch (e) {
        if (!(e instanceof OrderNotFoundError)) throw e;
        const venue = await gateway.fetchOrder(row.venueOrderId!, row.symbol);
        return applyVenueOrder(gateway, row, venue);
      }
    },
  };
}
