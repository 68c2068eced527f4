import { toDecimal } from '@kairos/core';
import type { FastifyBaseLogger } from 'fastify';
import type { TradeDbRow, TradesRepo } from './trades-repo';
import type { AccountRow, GatewayProvider } from '../exchange/gateway-provider';
import { urgently } from '../exchange/urgency';
import { mapLimited, sharedRead } from '../lib/batch-loader';
import { startIntervalLoop } from './interval-loop';
import type { TradeSupervisor } from './trade-supervisor';
import type { VenueStopGuard } from './venue-stop-guard';

/**
 * How long the watch leaves a crossed stop to the venue stop resting at that price before it exits itself:
 * venues trigger on the mark price, which lags the last price a little; past this, the venue stop is read
 * back each pass and, still not triggered, the watch is the backstop (the venue stop is reduce-only: it
 * cannot double the exit).
 */
export const VENUE_STOP_GRACE_MS = 5_000;

/** Stop exits sent at once across trades (each under its own trade lock; one venue throttle per venue). */
const EXIT_CONCURRENCY = 32;

/** Long: the price fell to the stop; short: it rose to it. */
export function stopCrossed(side: 'long' | 'short', stop: string, last: string): boolean {
  return side === 'long' ? toDecimal(last).lte(stop) : toDecimal(last).gte(stop);
}

/**
 * The stop-loss as a price watch, the backstop of the stops resting on venues (issue 18) and the only stop
 * where the venue has none: every `intervalMs` the last price of each symbol with an open stopped trade is
 * read once per venue, every trade evaluated against it, and the trades whose stop was crossed exit at market
 * concurrently through the supervisor, ahead of polling in the venue's throttle (resting take-profits
 * cancelled first; one client order id per trade, so never twice). A trade whose stop rests on
 * the venue at that price is left to the venue for `VENUE_STOP_GRACE_MS` (its stop read back meanwhile).
 */
export function startStopLossWatch(
  deps: {
    trades: Pick<TradesRepo, 'openTradesWithStops'>;
    gateways: GatewayProvider;
    supervisor: Pick<TradeSupervisor, 'closeTrade' | 'stopClientOrderId'>;
    venueStops?: Pick<VenueStopGuard, 'checkTrade'>;
    log: FastifyBaseLogger;
    now?: () => number;
  },
  options: { intervalMs?: number } = {},
) {
  const now = deps.now ?? Date.now;
  /** When the watch first saw the price through a stop that rests on the venue, per trade. */
  const crossedSince = new Map<string, number>();

  /** One crossed stop: left to its venue stop for the grace period, else exited at market, urgently. */
  async function act(trade: TradeDbRow, account: AccountRow, last: string, restsOnVenue: boolean) {
    try {
      if (restsOnVenue && deps.venueStops) {
        const since = crossedSince.get(trade.id) ?? now();
        crossedSince.set(trade.id, since);
        // The venue's stop should fire: read it back (a triggered one is booked as the exit).
        const gateway = await deps.gateways.forAccount(account);
        if (await deps.venueStops.checkTrade(gateway, trade.id)) return;
        if (now() - since < VENUE_STOP_GRACE_MS) return;
        deps.log.warn(
          { tradeId: trade.id, stop: trade.stopLossPrice, last },
          'venue stop not triggered: exiting',
        );
      }
      deps.log.info({ tradeId: trade.id, stop: trade.stopLossPrice, last }, 'stop-loss hit');
      // Ahead of every queued poll in the venue's throttle: a late stop costs money.
      await urgently(() =>
        deps.supervisor.closeTrade(
          trade.id,
          deps.supervisor.stopClientOrderId(trade.id),
          'stop loss',
          'stop',
          (current) =>
            current.status === 'open' &&
            !!current.stopLossPrice &&
            stopCrossed(current.side, current.stopLossPrice, last),
        ),
      );
    } catch (e) {
      deps.log.warn({ err: e, tradeId: trade.id }, 'stop-loss check failed');
    }
  }

  /**
   * One pass: one price per venue and symbol (read concurrently), every open stopped trade evaluated against
   * its symbol's price, then the crossed ones acted on concurrently (each under its own trade lock).
   */
  async function check() {
    const rows = await deps.trades.openTradesWithStops();
    const prices = new Map<string, Promise<string | null>>();
    const priceOf = (account: AccountRow, symbol: string) => {
      const venue =
        account.exchange === 'paper'
          ? `paper|${account.marketType}`
          : `${account.exchange}|${account.sandbox}|${account.marketType}`;
      return sharedRead(prices, `${venue}|${symbol}`, () =>
        deps.gateways
          .forAccount(account)
          .then((g) => g.fetchTicker(symbol))
          .then((t) => t.last)
          .catch((e: unknown) => {
            deps.log.warn({ err: e, symbol, exchange: account.exchange }, 'stop-loss watch: no price');
            return null;
          }),
      );
    };
    const evaluated = await Promise.all(
      rows.map(async (row) => ({ ...row, last: await priceOf(row.account, row.trade.symbol) })),
    );
    const crossed = evaluated.flatMap(({ last, ...row }) =>
      last && stopCrossed(row.trade.side, row.trade.stopLossPrice!, last) ? [{ ...row, last }] : [],
    );
    // The grace period runs only while a crossed trade's stop rests on the venue.
    const waiting = new Set(crossed.filter((r) => r.restsOnVenue).map((r) => r.trade.id));
    for (const id of crossedSince.keys()) if (!waiting.has(id)) crossedSince.delete(id);
    await mapLimited(crossed, EXIT_CONCURRENCY, ({ trade, account, last, restsOnVenue }) =>
      act(trade, account, last, restsOnVenue),
    );
  }

  return startIntervalLoop(check, options.intervalMs ?? 1_000, (e) =>
    deps.log.error({ err: e }, 'stop-loss watch pass failed'),
  );
}
