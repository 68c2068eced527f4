import { toDecimal } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import type { PaperOrderEvent, PaperVenue } from '../exchange/paper/paper-venue';
import type { TradesRepo } from './trades-repo';
import type { OrderExecutor } from './order-executor';
import type { TradeLock } from './trade-lock';
import type { TradeSupervisor } from './trade-supervisor';

/**
 * Fill tracking on the paper venue: its order events (a resting take-profit filled by the matching
 * tick, a limit entry filled) are applied to our rows through the executor and the trade followed
 * through. Events are queued and drained in order; news our row already shows is skipped, and so is
 * the answer to our own create or cancel call (the executor applies that one itself). ccxt accounts
 * are polled by the reconciliation loop instead.
 */
export function startPaperFillTracker(deps: {
  paperVenue: Pick<PaperVenue, 'events'>;
  trades: Pick<TradesRepo, 'findOrderByClientId'>;
  executor: Pick<OrderExecutor, 'applyVenueOrder'>;
  supervisor: Pick<TradeSupervisor, 'onVenueOrder'>;
  lock: Pick<TradeLock, 'detached'>;
  log: FastifyBaseLogger;
}) {
  const queue: PaperOrderEvent[] = [];
  let draining: Promise<void> | null = null;

  async function handle(event: PaperOrderEvent) {
    const clientOrderId = event.order.clientOrderId;
    if (!clientOrderId) return;
    const row = await deps.trades.findOrderByClientId(event.accountId, clientOrderId);
    if (!row) return; // not one of ours (another process' test order, a market-data probe)
    const known = row.status === event.order.status && toDecimal(row.filled).eq(event.order.filled);
    if (known) return;
    await deps.supervisor.onVenueOrder(row, (gateway) =>
      deps.executor.applyVenueOrder(gateway, row, event.order),
    );
  }

  function drain() {
    draining ??= (async () => {
      while (queue.length > 0) {
        const event = queue.shift()!;
        try {
          await handle(event);
        } catch (e) {
          deps.log.warn({ err: e, accountId: event.accountId }, 'paper order event not applied');
        }
      }
      draining = null;
    })();
  }

  // Emitted from inside the call that changed the paper ledger: handled outside that call's trade lock.
  const listener = (event: PaperOrderEvent) => {
    if (event.reported) return;
    deps.lock.detached(() => {
      queue.push(event);
      drain();
    });
  };
  deps.paperVenue.events.on('order', listener);

  return {
    async stop() {
      deps.paperVenue.events.off('order', listener);
      await draining;
    },
  };
}
