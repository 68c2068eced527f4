import { isTradeActive, toDecimal, toNumericString, tradeClientOrderId, type Decimal } from '@kairos/core';
import { apiError, type ApiMessageArgs, type ApiMessageCode, type OrderRole } from '@kairos/contract';
import type { FastifyBaseLogger } from 'fastify';
import { FALLBACK_TICK, type ExchangeGateway, type Fill, type Order } from '../exchange/gateway';
import { findMarket, type TradeLifecycle } from './trade-lifecycle';
import type { TradeLock } from './trade-lock';
import { heldQuantity } from './trades-fns';
import type { TradeDbRow, TradesRepo } from './trades-repo';
import {
  allocateFills,
  compareHoldings,
  shareShortfall,
  type AllocatedFill,
  type HeldTrade,
  type Mismatch,
} from './position-check-fns';

/** A shortfall is acted on once seen on this many consecutive sweeps (a fill racing one read is not a close). */
export const SHORTFALL_SWEEPS = 2;
/**
 * A shortfall whose fills the venue does not list (a lagging trade list) waits for them; after this many
 * consecutive sweeps the user is told on the trade and an error is logged. It is never booked on a guess: an
 * empty positions read the venue's fills do not confirm (a symbol read wrong, a venue's bad answer) would
 * otherwise close the trade and cancel the stop of a position that is still open.
 */
export const UNEXPLAINED_ALERT_AFTER_SWEEPS = 5;
/** The venue's trade list is read from this long before the oldest trade opened (clocks differ). */
const CLOCK_MARGIN_MS = 60_000;
/**
 * At most this far back: Binance USDⓈ-M answers a trade list from `startTime` for 7 days only. A close older
 * than that (Kairos down for a week) is found only where the venue lists it; otherwise it is left to the user.
 */
const FILLS_WINDOW_MS = 6 * 86_400_000;
/** Pages of the trade list read at most (a busy symbol's first page may end before the close). */
const FILL_PAGES = 10;

/**
 * How a trade's note began when the venue held more than its trades, or less with no fill explaining it,
 * before notes carried their code (the prefix finds such a note again on an older row).
 */
export const EXCESS_NOTE = 'The venue holds more than';
export const UNEXPLAINED_NOTE = 'The venue holds less than';
/** The codes of those notes (API_MESSAGES), from which the web says them in the user's language. */
const EXCESS_CODE = 'POSITION_EXCESS';
const UNEXPLAINED_CODE = 'POSITION_SHORTFALL_UNEXPLAINED';

/** A note written on a trade: the English text, and the code and params the web says it from. */
export function tradeNote<C extends ApiMessageCode>(code: C, ...[params]: ApiMessageArgs<C>) {
  const [errorCode, error, errorParams] = apiError(code, ...([params] as ApiMessageArgs<C>));
  return { error, errorCode, errorParams: errorParams ?? null };
}
const NO_NOTE = { error: null, errorCode: null, errorParams: null };
/** Whether writing `note` changes what the trade says: its text, or its code (a row noted before codes had none). */
const noteChanges = (trade: Pick<TradeDbRow, 'error' | 'errorCode'>, note: ReturnType<typeof tradeNote>) =>
  trade.error !== note.error || trade.errorCode !== note.errorCode;

/** Whether a trade carries the note `code` (or, on an older row, a note that began with `prefix`). */
const hasNote = (trade: Pick<TradeDbRow, 'error' | 'errorCode'>, code: string, prefix: string) =>
  trade.errorCode === code || (!trade.errorCode && trade.error?.startsWith(prefix) === true);
export const CLOSED_ON_VENUE = 'closed on venue';
export const LIQUIDATION = 'liquidation';

export type PositionCheck = ReturnType<typeof createPositionCheck>;

/**
 * The venue's futures positions against Kairos's open trades (the lifecycle invariant: "every open position at
 * the venue is matched by its trade's quantity"), on reconciliation's sweeps, after the account's live orders
 * were settled: one positions read per futures account holding open trades, nothing for the others.
 *
 * - The venue holds less: the position was closed outside Kairos (by hand on the venue's site, liquidated).
 *   Acted on once seen on `SHORTFALL_SWEEPS` consecutive sweeps with no order of ours there awaiting an answer.
 *   The venue's fills since the trade opened that belong to none of our orders are booked as the trade's exit
 *   (one filled `orders` row per venue order, its fills the venue's: the PnL is the venue's, fees included), the
 *   trade closed "liquidation" when the venue says so, else "closed on venue"; the supervisor then cancels
 *   what rests of it (take-profits, the venue stop) through the normal paths. A partial shortfall is a partial
 *   exit: the venue stop follows the smaller size (its guard re-places it); the take-profits keep their sizes
 *   (reduce-only, they close no more than the venue holds), which the trade's note says. Nothing is booked
 *   until the venue's fills explain the whole shortfall; after `UNEXPLAINED_ALERT_AFTER_SWEEPS` sweeps without
 *   them the trade's note tells the user (its stop and take-profits left as they are) and an error is logged.
 * - The venue holds more (opened by hand, a duplicate): never traded away. Alerted once — an error logged
 *   once per process and figure, and the note on the symbol's trades written once (it is what the user sees).
 */
export function createPositionCheck(deps: {
  trades: Pick<
    TradesRepo,
    'heldOfTrades' | 'unansweredSymbols' | 'knownVenueOrderIds' | 'bookOutsideExit' | 'updateTrade'
  >;
  lifecycle: Pick<TradeLifecycle, 'loadState' | 'settleFigures'>;
  lock: Pick<TradeLock, 'withTrade'>;
  log: FastifyBaseLogger;
  now?: () => number;
}) {
  const { trades, lifecycle, lock, log } = deps;
  const now = deps.now ?? Date.now;
  /** Consecutive sweeps each (account, symbol, side) was seen short. */
  const seenShort = new Map<string, number>();
  /** Excesses already alerted in this process (account, symbol, side, venue amount). */
  const alerted = new Set<string>();

  /**
   * One futures account's check, given its open trades (the sweep read them). Returns the trades it changed:
   * the sweep's supervision follows them through (closes them, cancels their leftovers).
   */
  async function checkAccount(
    gateway: ExchangeGateway,
    accountId: string,
    active: readonly TradeDbRow[],
  ): Promise<Set<string>> {
    const touched = new Set<string>();
    if (gateway.marketType !== 'future' || active.length === 0) return touched;
    const [held, unanswered, positions] = await Promise.all([
      trades.heldOfTrades(active.map((t) => t.id)),
      trades.unansweredSymbols(accountId),
      gateway.fetchPositions(),
    ]);
    const holding: HeldTrade[] = active.map((t) => ({
      id: t.id,
      symbol: t.symbol,
      side: t.side,
      held: heldQuantity(t, held.get(t.id) ?? []),
      openedAt: t.openedAt,
    }));
    const steps = new Map<string, Decimal>();
    for (const symbol of new Set([...active.map((t) => t.symbol), ...positions.map((p) => p.symbol)])) {
      try {
        steps.set(symbol, toDecimal((await findMarket(gateway, symbol)).amountStep ?? FALLBACK_TICK));
      } catch {
        steps.set(symbol, toDecimal(FALLBACK_TICK));
      }
    }
    const mismatches = compareHoldings(holding, positions, {
      skip: unanswered,
      // Half a step: a real order moves at least one.
      tolerance: (symbol) => steps.get(symbol)!.div(2),
    });

    const prefix = `${accountId}|`;
    const before = new Map([...seenShort].filter(([key]) => key.startsWith(prefix)));
    for (const key of before.keys()) seenShort.delete(key);
    for (const mismatch of mismatches) {
      try {
        if (mismatch.kind === 'short') {
          const key = `${prefix}${mismatch.symbol}|${mismatch.side}`;
          const count = (before.get(key) ?? 0) + 1;
          seenShort.set(key, count);
          if (count < SHORTFALL_SWEEPS) {
            log.info(
              {
                accountId,
                symbol: mismatch.symbol,
                side: mismatch.side,
                missing: mismatch.missing.toFixed(),
              },
              'the venue holds less than the trades: read again next sweep',
            );
            continue;
          }
          const done = await settleShortfall(gateway, accountId, mismatch, count);
          for (const id of done) touched.add(id);
          if (done.size > 0) seenShort.delete(key);
        } else {
          await alertExcess(accountId, mismatch, active);
        }
      } catch (e) {
        log.warn({ err: e, accountId, symbol: mismatch.symbol }, 'could not settle a position mismatch');
      }
    }
    await clearStaleNotes(accountId, mismatches, active);
    return touched;
  }

  /** The venue holds more than the trades (or nets differently): alerted once, never traded away. */
  async function alertExcess(
    accountId: string,
    mismatch: Exclude<Mismatch, { kind: 'short' }>,
    active: readonly TradeDbRow[],
  ) {
    const side = mismatch.kind === 'excess' ? mismatch.side : 'net';
    const key = `${accountId}|${mismatch.symbol}|${side}|${mismatch.venue.toFixed()}`;
    const figures = {
      symbol: mismatch.symbol,
      atVenue: mismatch.venue.toFixed(),
      inKairos: mismatch.ours.toFixed(),
    };
    const note =
      mismatch.kind === 'excess'
        ? tradeNote(EXCESS_CODE, { ...figures, side: mismatch.side })
        : tradeNote(EXCESS_CODE, { ...figures, variant: 'net' });
    if (!alerted.has(key)) {
      alerted.add(key);
      log.error(
        {
          accountId,
          symbol: mismatch.symbol,
          side,
          venue: mismatch.venue.toFixed(),
          ours: mismatch.ours.toFixed(),
          tradeIds: mismatch.trades.map((t) => t.id),
        },
        'the venue holds more than its trades hold: left alone (opened by hand, or a duplicate?)',
      );
    }
    const ids = new Set(mismatch.trades.map((t) => t.id));
    for (const trade of active)
      if (ids.has(trade.id) && noteChanges(trade, note)) await trades.updateTrade(trade.id, note);
  }

  /**
   * The venue holds less and none of its fills explains it, sweep after sweep: the user is told on the trades
   * (once) and an error logged once per process and figure. The trades, their stop and take-profits are left as
   * they are; the fills, once listed, are booked on a later sweep.
   */
  async function alertUnexplained(accountId: string, mismatch: Extract<Mismatch, { kind: 'short' }>) {
    const key = `${accountId}|${mismatch.symbol}|${mismatch.side}|short|${mismatch.venue.toFixed()}`;
    const held = mismatch.trades.reduce((sum, t) => sum.plus(t.held), toDecimal(0));
    const note = tradeNote(UNEXPLAINED_CODE, {
      atVenue: mismatch.venue.toFixed(),
      symbol: mismatch.symbol,
      side: mismatch.side,
      inKairos: held.toFixed(),
    });
    if (!alerted.has(key)) {
      alerted.add(key);
      log.error(
        {
          accountId,
          symbol: mismatch.symbol,
          side: mismatch.side,
          venue: mismatch.venue.toFixed(),
          ours: held.toFixed(),
          tradeIds: mismatch.trades.map((t) => t.id),
        },
        'the venue holds less than its trades and lists no fill that explains it: left as it is, the user told',
      );
    }
    for (const seen of mismatch.trades) {
      const state = await lifecycle.loadState(seen.id);
      if (state && isTradeActive(state.trade.status) && noteChanges(state.trade, note))
        await trades.updateTrade(seen.id, note);
    }
  }

  /** A note about an excess that is gone (the hand's position closed) is taken off its trade. */
  async function clearStaleNotes(
    accountId: string,
    mismatches: readonly Mismatch[],
    active: readonly TradeDbRow[],
  ) {
    const flagged = new Set(mismatches.flatMap((m) => m.trades.map((t) => t.id)));
    for (const trade of active) {
      const noted =
        hasNote(trade, EXCESS_CODE, EXCESS_NOTE) || hasNote(trade, UNEXPLAINED_CODE, UNEXPLAINED_NOTE);
      if (!noted || flagged.has(trade.id)) continue;
      await trades.updateTrade(trade.id, NO_NOTE);
      for (const key of [...alerted])
        if (key.startsWith(`${accountId}|${trade.symbol}|`)) alerted.delete(key);
    }
  }

  /** The venue's fills on the symbol since `since` that belong to none of our orders, on `side`. */
  async function foreignFills(
    gateway: ExchangeGateway,
    accountId: string,
    symbol: string,
    side: 'buy' | 'sell',
    since: Date,
  ): Promise<Fill[]> {
    const from = Math.max(since.getTime() - CLOCK_MARGIN_MS, now() - FILLS_WINDOW_MS);
    const [listed, known] = await Promise.all([
      listFills(gateway, symbol, from),
      trades.knownVenueOrderIds(accountId, symbol, since),
    ]);
    return listed.filter((f) => f.side === side && !known.has(f.venueOrderId) && f.timestamp >= from);
  }

  /** Every page of the venue's trade list on the symbol from `from`, each fill once. */
  async function listFills(gateway: ExchangeGateway, symbol: string, from: number): Promise<Fill[]> {
    const byId = new Map<string, Fill>();
    let since = from;
    for (let page = 0; page < FILL_PAGES; page++) {
      const batch = await gateway.fetchMyTrades(symbol, since);
      const before = byId.size;
      for (const fill of batch) byId.set(fill.venueTradeId, fill);
      const last = batch.at(-1)?.timestamp;
      if (batch.length === 0 || byId.size === before || last === undefined || last <= since) break;
      since = last;
    }
    return [...byId.values()];
  }

  /**
   * A shortfall seen long enough: the venue's fills of the close booked on the trades that lost it, each under
   * its lock. Returns the trades booked.
   */
  async function settleShortfall(
    gateway: ExchangeGateway,
    accountId: string,
    mismatch: Extract<Mismatch, { kind: 'short' }>,
    sweeps: number,
  ): Promise<Set<string>> {
    const booked = new Set<string>();
    const exitSide = mismatch.side === 'long' ? 'sell' : 'buy';
    const since = new Date(Math.min(...mismatch.trades.map((t) => t.openedAt.getTime())));
    const fills = await foreignFills(gateway, accountId, mismatch.symbol, exitSide, since);
    const needs = shareShortfall(mismatch.trades, mismatch.missing);
    const { parts, uncovered } = allocateFills(needs, fills);
    if (uncovered.size > 0) {
      if (sweeps < UNEXPLAINED_ALERT_AFTER_SWEEPS) {
        log.warn(
          { accountId, symbol: mismatch.symbol, missing: mismatch.missing.toFixed(), sweeps },
          'the venue holds less than the trades, and its fills of the close are not listed yet: waiting for them',
        );
      } else await alertUnexplained(accountId, mismatch);
      return booked;
    }
    // What each venue order is (a liquidation, by the venue's word), read once per order.
    const orders = new Map<string, Order | null>();
    for (const venueOrderId of new Set(parts.map((p) => p.venueOrderId))) {
      try {
        orders.set(venueOrderId, await gateway.fetchOrder(venueOrderId, mismatch.symbol));
      } catch (e) {
        log.warn({ err: e, venueOrderId }, 'could not read the venue order of an outside close');
        orders.set(venueOrderId, null);
      }
    }
    for (const trade of mismatch.trades) {
      const need = needs.get(trade.id);
      if (!need) continue;
      const ok = await lock.withTrade(trade.id, () =>
        bookOnTrade(trade, need, {
          parts: parts.filter((p) => p.tradeId === trade.id),
          orders,
          exitSide,
          flat: mismatch.venue.lte(0),
          gateway,
        }),
      );
      if (ok) booked.add(trade.id);
    }
    return booked;
  }

  /** Under the trade's lock: the exit booked unless the trade moved since the comparison. */
  async function bookOnTrade(
    seen: HeldTrade,
    need: Decimal,
    what: {
      parts: AllocatedFill[];
      orders: Map<string, Order | null>;
      exitSide: 'buy' | 'sell';
      flat: boolean;
      gateway: ExchangeGateway;
    },
  ): Promise<boolean> {
    const state = await lifecycle.loadState(seen.id);
    if (!state || !isTradeActive(state.trade.status)) return false;
    const { trade } = state;
    // Its fills changed since the comparison (an exit of ours settled meanwhile): the next sweep compares again.
    if (!heldQuantity(trade, state.fills).eq(seen.held)) return false;
    const liquidated = [...new Set(what.parts.map((p) => p.venueOrderId))].some(
      (id) => what.orders.get(id)?.liquidation === true,
    );
    const reason = liquidated ? LIQUIDATION : CLOSED_ON_VENUE;
    const byOrder = new Map<string, AllocatedFill[]>();
    for (const part of what.parts)
      byOrder.set(part.venueOrderId, [...(byOrder.get(part.venueOrderId) ?? []), part]);
    type Exit = Parameters<typeof trades.bookOutsideExit>[1][number];
    const exits: Exit[] = [...byOrder].map(([venueOrderId, parts]) => {
      const venue = what.orders.get(venueOrderId);
      const amount = parts.reduce((s, p) => s.plus(p.amount), toDecimal(0));
      const cost = parts.reduce((s, p) => s.plus(toDecimal(p.price).times(p.amount)), toDecimal(0));
      return {
        clientOrderId: tradeClientOrderId(trade.id, 'venue-close', venueOrderId),
        venueOrderId,
        role: (venue?.liquidation ? 'liquidation' : 'venue-close') satisfies OrderRole,
        side: what.exitSide,
        type: venue?.type ?? 'market',
        reduceOnly: venue?.reduceOnly ?? false,
        amount: toNumericString(amount),
        average: toNumericString(cost.div(amount)),
        fills: parts.map((p) => ({
          venueTradeId: p.venueTradeId,
          price: p.price,
          amount: p.amount,
          fee: p.fee,
          feeCurrency: p.feeCurrency,
          at: new Date(p.timestamp),
        })),
      };
    });
    const note = what.flat
      ? null
      : tradeNote('PARTLY_CLOSED_ON_VENUE', { amount: need.toFixed(), symbol: trade.symbol });
    // A note that the close was not explained yet goes: it is now.
    const unexplained = hasNote(trade, UNEXPLAINED_CODE, UNEXPLAINED_NOTE);
    const created = await trades.bookOutsideExit(trade, exits, {
      ...(what.flat ? { closeReason: reason } : {}),
      ...(note ?? (unexplained ? NO_NOTE : {})),
    });
    if (created === 0) return false;
    const after = (await lifecycle.loadState(trade.id))!;
    const market = await findMarket(what.gateway, trade.symbol);
    await lifecycle.settleFigures(after, market, reason);
    (what.flat ? log.warn : log.error).call(
      log,
      { tradeId: trade.id, symbol: trade.symbol, amount: need.toFixed(), reason },
      what.flat
        ? 'a position closed outside Kairos: its trade closed from the venue’s fills'
        : 'part of a position closed outside Kairos: booked from the venue’s fills',
    );
    return true;
  }

  return { checkAccount };
}
