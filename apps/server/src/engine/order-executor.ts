import { isTerminal, reconcileOrderState, toDecimal } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import { OrderNotFoundError, RetryableExchangeError, UnknownOutcomeError } from '../exchange/errors';
import type { ExchangeGateway, Order } from '../exchange/gateway';
import type { OrderRow, TradesRepo } from '../modules/trades/trades-repo';
import type { AccountReadiness } from './account-readiness';

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
   * Brings our row in line with what the venue says, and stores any new fills. Runs on the row as
   * committed now: news older than what we know (a late event, a slow poll) changes nothing.
   */
  async function applyVenueOrder(gateway: ExchangeGateway, row: OrderRow, venue: Order): Promise<OrderRow> {
    const updated = await trades.updateOrderLocked(row.id, (current) => {
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
    });
    if (toDecimal(updated.filled).gt(await trades.filledOfOrder(updated.id)))
      await syncFills(gateway, updated);
    return updated;
  }

  async function syncFills(gateway: ExchangeGateway, row: OrderRow): Promise<void> {
    if (!row.venueOrderId) return;
    const since = row.createdAt.getTime() - 60_000;
    const venueFills = (await gateway.fetchMyTrades(row.symbol, since)).filter(
      (f) => f.venueOrderId === row.venueOrderId,
    );
    await trades.insertFills(
      venueFills.map((f) => ({
        orderId: row.id,
        tradeId: row.tradeId,
        venueTradeId: f.venueTradeId,
        price: f.price,
        amount: f.amount,
        fee: f.fee,
        feeCurrency: f.feeCurrency,
        at: new Date(f.timestamp),
      })),
    );
  }

  return {
    applyVenueOrder,

    /**
     * Sends the order unless the venue already has it. Venue errors other than an unknown
     * outcome mark the row rejected and are rethrown for the caller to report.
     */
    async submit(gateway: ExchangeGateway, row: OrderRow, created: boolean): Promise<OrderRow> {
      if (!['new', 'submitted', 'unknown'].includes(row.status)) return row; // already settled with the venue
      if (!created || row.status !== 'new') {
        try {
          const existing = await gateway.fetchOrderByClientId(row.clientOrderId, row.symbol);
          return await applyVenueOrder(gateway, row, existing);
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
        return await applyVenueOrder(gateway, row, venue);
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
