import type { FastifyBaseLogger } from 'fastify';
import type { TradeDbRow } from './trades-repo';
import type { AccountRow, GatewayProvider } from '../exchange/gateway-provider';
import { urgently } from '../exchange/urgency';
import { startIntervalLoop } from './interval-loop';
import { buildStopBook, stopCrossed, type StopBook, type WatchedStop } from './stop-watch-book';
import { createExitQueue } from './stop-watch-exits';
import type { TradeSupervisor } from './trade-supervisor';
import type { VenueStopGuard } from './venue-stop-guard';

export { stopCrossed } from './stop-watch-book';

/**
 * How long the watch leaves a crossed stop to the venue stop resting at that price before it exits itself:
 * venues trigger on the mark price, which lags the last price a little; past this, the venue stop is read
 * back every `RETRY_MS` and, still not triggered, the watch is the backstop (the venue stop is reduce-only: it
 * cannot double the exit).
 */
export const VENUE_STOP_GRACE_MS = 5_000;

/** Stop exits under way at once, across accounts (each under its own trade lock; one throttle per venue). */
const EXIT_CONCURRENCY = 32;
/** …and per account: one account whose venue is slow holds back no other account. */
const ACCOUNT_CONCURRENCY = 2;
/** A trade whose exit failed, or whose venue stop is read back during its grace, is tried again after this. */
const RETRY_MS = 1_000;

/** What the watch reads of each open stopped trade (the trades repo's `openTradesWithStops`). */
export type WatchedRow = {
  trade: Pick<TradeDbRow, 'id' | 'symbol' | 'side' | 'stopLossPrice' | 'tradingAccountId'>;
  account: AccountRow;
  restsOnVenue: boolean;
};

export type StopLossWatchOptions = {
  /** How often the price of each watched symbol is read from a venue reached over the network (default 1 s). */
  intervalMs?: number;
  /** How often the paper venue's prices are read: a function of time, no I/O (default 100 ms). */
  paperIntervalMs?: number;
  /** How often the open stopped trades are re-read from the database (default 1 s). */
  refreshMs?: number;
};

/** The venue whose prices an account trades at: one price read serves every account on it. */
function venueOf(account: AccountRow): string {
  return account.exchange === 'paper'
    ? `paper|${account.marketType}`
    : `${account.exchange}|${account.sandbox}|${account.marketType}`;
}

/**
 * The stop-loss as a price watch, the backstop of the stops resting on venues (issue 18) and the only stop
 * where the venue has none. The open stopped trades are kept in memory, indexed per venue and symbol and
 * sorted by stop (re-read from the database in the background every `refreshMs`); each venue's watched
 * symbols are priced every `intervalMs` (`paperIntervalMs` on the paper venue), and each price is checked
 * at once against that symbol's stops: the crossed trades exit at market through the supervisor, concurrently
 * across accounts, ahead of polling in the venue's throttle (resting take-profits cancelled first; one client
 * order id per trade, so never twice). An entry made stale by a moved stop or a closed trade is harmless: the
 * supervisor re-checks the stop under the trade lock. A trade whose stop rests on the venue at that price is
 * left to the venue for `VENUE_STOP_GRACE_MS` (its stop read back meanwhile).
 */
export function startStopLossWatch(
  deps: {
    trades: { openTradesWithStops(): Promise<WatchedRow[]> };
    gateways: GatewayProvider;
    supervisor: Pick<TradeSupervisor, 'closeTrade' | 'stopClientOrderId'>;
    venueStops?: Pick<VenueStopGuard, 'checkTrade'>;
    log: FastifyBaseLogger;
    now?: () => number;
  },
  options: StopLossWatchOptions = {},
) {
  const now = deps.now ?? Date.now;
  let book: StopBook = buildStopBook([]);
  const accounts = new Map<string, AccountRow>();
  /** Per venue: the accounts of its latest refresh, any of which can read its prices. */
  const venueAccounts = new Map<string, AccountRow[]>();
  /** When the watch first saw the price through a stop that rests on the venue, per trade. */
  const crossedSince = new Map<string, { since: number; venue: string; symbol: string }>();
  /** Trades acted on: left alone until a refresh read after that shows them as they are now. */
  const settled = new Map<string, number>();
  /** Trades to try again no sooner than this (a failed exit, a venue stop in its grace). */
  const retryAt = new Map<string, number>();
  const priceLoops = new Map<string, Promise<void>>();
  let stopped = false;
  const wakes = new Set<() => void>();

  /** One crossed stop: left to its venue stop for the grace period, else exited at market, urgently. */
  async function act(stop: WatchedStop & { last: string }) {
    const account = accounts.get(stop.accountId);
    if (!account) return;
    try {
      if (stop.restsOnVenue && deps.venueStops) {
        const crossed = crossedSince.get(stop.id);
        const since = crossed?.since ?? now();
        if (!crossed) crossedSince.set(stop.id, { since, venue: venueOf(account), symbol: stop.symbol });
        // The venue's stop should fire: read it back (a triggered one is booked as the exit).
        const gateway = await deps.gateways.forAccount(account);
        if (await deps.venueStops.checkTrade(gateway, stop.id)) return void settled.set(stop.id, now());
        if (now() - since < VENUE_STOP_GRACE_MS) return void retryAt.set(stop.id, now() + RETRY_MS);
        deps.log.warn(
          { tradeId: stop.id, stop: stop.stop, last: stop.last },
          'venue stop not triggered: exiting',
        );
      }
      deps.log.info({ tradeId: stop.id, stop: stop.stop, last: stop.last }, 'stop-loss hit');
      // Ahead of every queued poll in the venue's throttle: a late stop costs money.
      await urgently(() =>
        deps.supervisor.closeTrade(
          stop.id,
          deps.supervisor.stopClientOrderId(stop.id),
          'stop loss',
          'stop',
          (current) =>
            current.status === 'open' &&
            !!current.stopLossPrice &&
            stopCrossed(current.side, current.stopLossPrice, stop.last),
        ),
      );
      // Exited, or no longer wanted (the stop moved): either way the next refresh says what it is now.
      settled.set(stop.id, now());
    } catch (e) {
      retryAt.set(stop.id, now() + RETRY_MS);
      deps.log.warn({ err: e, tradeId: stop.id }, 'stop-loss check failed');
    }
  }
  const exits = createExitQueue(act, { total: EXIT_CONCURRENCY, perAccount: ACCOUNT_CONCURRENCY });

  /** A price of `venue`'s `symbol`: every stop it crossed acted on (those free to be). */
  function onPrice(venue: string, symbol: string, last: string) {
    const crossed = book.crossed(venue, symbol, last);
    const at = now();
    for (const stop of crossed) {
      if (settled.has(stop.id) || (retryAt.get(stop.id) ?? 0) > at) continue;
      exits.offer({ ...stop, last });
    }
    // The grace period runs only while the price stays through a stop that rests on the venue.
    if (crossedSince.size === 0) return;
    const still = new Set(crossed.map((s) => s.id));
    for (const [id, c] of crossedSince)
      if (c.venue === venue && c.symbol === symbol && !still.has(id) && !exits.busy(id))
        crossedSince.delete(id);
  }

  /** A gateway reading `venue`'s public prices: any of its accounts' (one that cannot connect gives way). */
  async function readerOf(venue: string) {
    let failure: unknown = new Error(`no account on ${venue}`);
    for (const account of venueAccounts.get(venue) ?? []) {
      try {
        return await deps.gateways.forAccount(account);
      } catch (e) {
        failure = e;
      }
    }
    throw failure;
  }

  /** Every watched symbol of `venue` priced once (concurrently), each checked as soon as its price comes. */
  async function priceRound(venue: string, symbols: string[]) {
    const gateway = await readerOf(venue).catch((e: unknown) => {
      deps.log.warn({ err: e, venue }, 'stop-loss watch: no gateway for prices');
      return null;
    });
    if (!gateway) return;
    await Promise.all(
      symbols.map(async (symbol) => {
        try {
          const last = (await gateway.fetchTicker(symbol)).last;
          if (last && !stopped) onPrice(venue, symbol, last);
        } catch (e) {
          deps.log.warn({ err: e, symbol, venue }, 'stop-loss watch: no price');
        }
      }),
    );
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakes.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakes.add(wake);
    });

  /** Prices `venue` every interval (measured from each round's start) while it has watched stops. */
  function startPricing(venue: string) {
    if (priceLoops.has(venue)) return;
    const interval = venue.startsWith('paper|')
      ? (options.paperIntervalMs ?? 100)
      : (options.intervalMs ?? 1_000);
    const loop = (async () => {
      while (!stopped) {
        const symbols = book.symbols(venue);
        if (symbols.length === 0) break;
        const started = now();
        await priceRound(venue, symbols);
        if (!stopped) await sleep(Math.max(0, interval - (now() - started)));
      }
    })().finally(() => priceLoops.delete(venue));
    priceLoops.set(venue, loop);
  }

  /** The open stopped trades re-read: a new book, and the trades acted on before the read freed. */
  async function refresh() {
    const readAt = now();
    const rows = await deps.trades.openTradesWithStops();
    const byVenue = new Map<string, AccountRow[]>();
    const entries: { venue: string; stop: WatchedStop }[] = [];
    accounts.clear();
    for (const { trade, account, restsOnVenue } of rows) {
      if (!trade.stopLossPrice) continue;
      const venue = venueOf(account);
      if (!accounts.has(account.id)) {
        accounts.set(account.id, account);
        const list = byVenue.get(venue) ?? [];
        list.push(account);
        byVenue.set(venue, list);
      }
      entries.push({
        venue,
        stop: {
          id: trade.id,
          accountId: account.id,
          symbol: trade.symbol,
          side: trade.side,
          stop: trade.stopLossPrice,
          restsOnVenue,
        },
      });
    }
    book = buildStopBook(entries);
    venueAccounts.clear();
    for (const [venue, list] of byVenue) venueAccounts.set(venue, list);
    for (const [id, at] of settled) if (at < readAt) settled.delete(id);
    const open = new Set(entries.map((e) => e.stop.id));
    for (const id of retryAt.keys()) if (!open.has(id)) retryAt.delete(id);
    for (const id of crossedSince.keys()) if (!open.has(id)) crossedSince.delete(id);
    if (!stopped) for (const venue of book.venues()) startPricing(venue);
  }

  const refreshing = startIntervalLoop(refresh, options.refreshMs ?? 1_000, (e) =>
    deps.log.error({ err: e }, 'stop-loss watch refresh failed'),
  );

  return {
    /** Stops reading and pricing; resolves once the exits under way have finished. */
    async stop() {
      stopped = true;
      for (const wake of [...wakes]) wake();
      await refreshing.stop();
      await Promise.all([...priceLoops.values()]);
      await exits.drain();
    },
  };
}
