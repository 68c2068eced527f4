import { toDecimal } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import type { TradesRepo } from './trades-repo';
import type { GatewayProvider } from '../exchange/gateway-provider';
import { startIntervalLoop } from './interval-loop';
import type { TradeSupervisor } from './trade-supervisor';

/** Long: the price fell to the stop; short: it rose to it. */
export function stopCrossed(side: 'long' | 'short', stop: string, last: string): boolean {
  return side === 'long' ? toDecimal(last).lte(stop) : toDecimal(last).gte(stop);
}

/**
 * The stop-loss as a price watch (our gateway port has no stop orders, and neither the paper venue nor
 * every ccxt venue offers one): every `intervalMs` the last price of each symbol with an open stopped
 * trade is read once per venue, and a trade whose stop was crossed exits at market through the
 * supervisor (resting take-profits cancelled first; one client order id per trade, so never twice).
 */
export function startStopLossWatch(
  deps: {
    trades: Pick<TradesRepo, 'openTradesWithStops'>;
    gateways: GatewayProvider;
    supervisor: Pick<TradeSupervisor, 'closeTrade' | 'stopClientOrderId'>;
    log: FastifyBaseLogger;
  },
  options: { intervalMs?: number } = {},
) {
  async function check() {
    const prices = new Map<string, Promise<string | null>>();
    for (const { trade, account } of await deps.trades.openTradesWithStops()) {
      // One price per venue and symbol per pass, whichever account asks first.
      const venue =
        account.exchange === 'paper'
          ? `paper|${account.marketType}`
          : `${account.exchange}|${account.sandbox}|${account.marketType}`;
      const key = `${venue}|${trade.symbol}`;
      let price = prices.get(key);
      if (!price) {
        price = deps.gateways
          .forAccount(account)
          .then((g) => g.fetchTicker(trade.symbol))
          .then((t) => t.last);
        prices.set(key, price);
      }
      try {
        const last = await price;
        if (!last || !stopCrossed(trade.side, trade.stopLossPrice!, last)) continue;
        deps.log.info({ tradeId: trade.id, stop: trade.stopLossPrice, last }, 'stop-loss hit');
        await deps.supervisor.closeTrade(
          trade.id,
          deps.supervisor.stopClientOrderId(trade.id),
          'stop loss',
          'stop',
          (now) =>
            now.status === 'open' && !!now.stopLossPrice && stopCrossed(now.side, now.stopLossPrice, last),
        );
      } catch (e) {
        deps.log.warn({ err: e, tradeId: trade.id }, 'stop-loss check failed');
      }
    }
  }

  return startIntervalLoop(check, options.intervalMs ?? 1_000, (e) =>
    deps.log.error({ err: e }, 'stop-loss watch pass failed'),
  );
}
