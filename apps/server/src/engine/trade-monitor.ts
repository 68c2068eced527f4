import type { FastifyBaseLogger } from 'fastify';
import type { PaperVenue } from '../exchange/paper/paper-venue';
import type { TradesRepo } from './trades-repo';
import { startPaperFillTracker } from './fill-tracker';
import type { GatewayProvider } from '../exchange/gateway-provider';
import type { OrderExecutor } from './order-executor';
import { startReconciliationLoop, type Reconciler } from './reconciliation';
import { startStopLossWatch, type WatchedRow } from './stop-loss-watch';
import type { TradeLock } from './trade-lock';
import type { TradeSupervisor } from './trade-supervisor';
import type { VenueStopGuard } from './venue-stop-guard';

export type TradeMonitorOptions = {
  /** Reconciliation and ccxt fill polling (default 5 s). */
  reconcileIntervalMs?: number;
  /** Stop-loss price checks (default 1 s). */
  stopLossIntervalMs?: number;
};

/**
 * What the worker runs for trades after their entry: paper fill events, reconciliation (at once, then
 * every few seconds; also the ccxt fill poller) and the stop-loss watch.
 */
export function startTradeMonitor(
  deps: {
    paperVenue: Pick<PaperVenue, 'events'>;
    trades: TradesRepo;
    gateways: GatewayProvider;
    executor: OrderExecutor;
    supervisor: TradeSupervisor;
    reconciler: Reconciler;
    venueStops?: VenueStopGuard;
    /** The stop-loss watch's read of the open stopped trades (the trades repo's when absent). */
    stopWatchTrades?: { openTradesWithStops(): Promise<WatchedRow[]> };
    lock: TradeLock;
    log: FastifyBaseLogger;
  },
  options: TradeMonitorOptions = {},
) {
  const fills = startPaperFillTracker(deps);
  const reconciliation = startReconciliationLoop(deps.reconciler, deps.log, {
    intervalMs: options.reconcileIntervalMs,
  });
  const stops = startStopLossWatch(
    { ...deps, trades: deps.stopWatchTrades ?? deps.trades },
    { intervalMs: options.stopLossIntervalMs },
  );
  return {
    async stop() {
      await Promise.all([stops.stop(), reconciliation.stop(), fills.stop()]);
    },
  };
}
