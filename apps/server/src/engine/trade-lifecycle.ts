import { apiError, nestedParams, TAKE_PROFIT_ROLE, type CloseReason } from '@kairos/contract';
import {
  canTransitionTrade,
  computeTradePnl,
  isOpenState,
  orderMinimumViolation,
  retryChain,
  roundDownToStep,
  sizeOrder,
  sizingPrice,
  sizingRuleFromBot,
  stopLossPrice,
  toDecimal,
  toNumericString,
  type DecimalInput,
} from '@kairos/core';
import {
  FALLBACK_TICK,
  type Balances,
  type ExchangeGateway,
  type MarginMode,
  type Market,
  type Ticker,
} from '../exchange/gateway';
import { ExchangeGatewayError, RetryableExchangeError } from '../exchange/errors';
import { DomainRuleError } from '../lib/errors';
import { heldQuantity, sellableQuantity } from './trades-fns';
import type { CommitMode, OrderRow, TradeDbRow, TradeFigures, TradesRepo } from './trades-repo';
import type { KnownFill, OrderExecutor } from './order-executor';
import { orderRefusal } from './last-error';

export type OpenRequest = {
  userId: string;
  botId: string | null;
  accountId: string;
  strategyId: string | null;
  alertId: string | null;
  symbol: string;
  side: 'long' | 'short';
  clientOrderId: string;
  /**
   * The entry order with `clientOrderId` when the caller looked it up already (null: there was none);
   * looked up here when absent.
   */
  knownEntry?: OrderRow | null;
  /** The signal's price when it carried one; else the venue's last price. */
  price?: string | null;
  /** How far (percent) the signal's price may be from the venue's and still size the entry (the strategy's). */
  priceTolerancePercent?: string;
  /**
   * The venue's ticker for `symbol` when the caller shares one between several entries (one fetch per
   * venue and symbol for all bots of an alert); fetched here when absent.
   */
  ticker?: () => Promise<Ticker>;
  /**
   * The account's balances when the caller shares one snapshot between several entries (every bot of an alert
   * on one account is sized from the balance the account had when the alert came, not from what the bots
   * before it left); fetched here when absent.
   */
  balances?: () => Promise<Balances>;
  /** Manual trades: the trade's id (chosen by the caller), the base quantity and an optional limit price. */
  tradeId?: string;
  quantity?: string;
  limitPrice?: string | null;
  sizing?: {
    fixedAmount: string | null;
    portfolioPercent: string | null;
    leveragePercent: string;
    stableCoin: string;
    /** Futures: set on the symbol with the leverage before the entry (isolated when absent). */
    marginMode?: MarginMode;
  };
  plan: {
    takeProfits: { role: string; percent: string; sizePercent: string }[];
    stopLossPercent: string | null;
    breakEvenAfterTp1: boolean;
    /** Spot venue stops: the limit's distance past the stop, in percent (the strategy's; default 0.5). */
    stopLimitOffsetPercent?: string | null;
  };
};

export class TradeRefusedError extends DomainRuleError {}

/** An exit refused a moment ago is not tried again yet: the trade stays open and watched meanwhile. */
export class ExitBackoffError extends RetryableExchangeError {}

/** Back-off between refused exits of one trade: 1 s, 2 s, 4 s … at most a minute. */
export function exitRetryDelayMs(refusedAttempts: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.max(0, refusedAttempts - 1));
}

/** The venue took the order (it rests or filled), as opposed to refused, lost or not answered yet. */
const isAccepted = (order: OrderRow) =>
  order.venueOrderId !== null && ['open', 'partially_filled', 'filled'].includes(order.status);

const marketCache = new WeakMap<ExchangeGateway, Promise<Market[]>>();

export async function findMarket(gateway: ExchangeGateway, symbol: string): Promise<Market> {
  let markets = marketCache.get(gateway);
  if (!markets) {
    markets = gateway.listMarkets();
    marketCache.set(gateway, markets);
    markets.catch(() => marketCache.delete(gateway));
  }
  const market = (await markets).find((m) => m.symbol === symbol);
  if (!market || !market.active)
    throw new TradeRefusedError(
      ...apiError('UNKNOWN_SYMBOL', { variant: 'notTraded', symbol, exchange: gateway.exchangeId }),
    );
  return market;
}

/** How a row written before a call to this venue is committed: flushed first unless the venue is in our database. */
function commitBeforeCall(gateway: Pick<ExchangeGateway, 'sharesDatabase'>): CommitMode {
  return gateway.sharesDatabase ? 'relaxed' : 'durable';
}

/** The row of a market order that reduces the trade's position (exit, stop, push): reduce-only on futures. */
export function marketExitOrder(
  gateway: Pick<ExchangeGateway, 'marketType'>,
  trade: Pick<TradeDbRow, 'id' | 'userId' | 'tradingAccountId' | 'symbol' | 'side'>,
  order: { clientOrderId: string; role: string; amount: DecimalInput },
) {
  return {
    tradeId: trade.id,
    userId: trade.userId,
    tradingAccountId: trade.tradingAccountId,
    clientOrderId: order.clientOrderId,
    role: order.role,
    symbol: trade.symbol,
    side: trade.side === 'long' ? ('sell' as const) : ('buy' as const),
    type: 'market' as const,
    reduceOnly: gateway.marketType === 'future',
    amount: toNumericString(order.amount),
  };
}

/**
 * One trade as the caller last read or wrote it: the row, its orders and all of its fills. Passed along
 * so that a step which just wrote something need not read it back.
 */
export type TradeState = { trade: TradeDbRow; orders: OrderRow[]; fills: KnownFill[] };

/** What a trade's fills decide: its figures once anything filled, and whether that ends it. */
type FiguresChange = {
  figures?: TradeFigures;
  end?: Pick<TradeDbRow, 'status' | 'closedAt' | 'closeReason'>;
};

/** Numeric columns hold 18 decimals: a figure equal at that scale is unchanged. */
const STORED_SCALE = 18;

function sameStoredValue(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (typeof a === 'string' && typeof b === 'string' && a !== b) {
    const numeric = /^-?\d+(\.\d+)?$/;
    if (!numeric.test(a) || !numeric.test(b)) return false;
    return toDecimal(a).toDecimalPlaces(STORED_SCALE).eq(toDecimal(b).toDecimalPlaces(STORED_SCALE));
  }
  return a === b;
}

/** A bot's leverage as the venue takes it: its percent ÷ 100, rounded up to a whole number (at least 1). */
export function venueLeverage(leveragePercent: DecimalInput): number {
  return Math.max(1, Math.ceil(toDecimal(leveragePercent).div(100).toNumber()));
}

/** Opening and closing trades on a venue, and keeping a trade's figures equal to its fills. */
export type TradeLifecycle = ReturnType<typeof createTradeLifecycle>;

export function createTradeLifecycle(deps: {
  trades: TradesRepo;
  executor: OrderExecutor;
  now?: () => number;
}) {
  const { trades, executor } = deps;
  const now = deps.now ?? Date.now;

  /** The trade's orders and fills as stored now. */
  async function loadState(tradeId: string): Promise<TradeState | undefined> {
    const [withOrders, fills] = await Promise.all([
      trades.tradeWithOrders(tradeId),
      trades.fillsOfTrade(tradeId),
    ]);
    return withOrders && { ...withOrders, fills };
  }

  /**
   * The change that makes the trade's quantity, prices, PnL, commission and status equal to its fills
   * (decimal, from the stored fills). A trade is closed once it exited something and what it still holds
   * is below the venue's amount step (base fee dust cannot be sold); a trade whose entry ended without any
   * fill is cancelled. `closeReason` is the reason given when the caller is ending the trade.
   */
  function figuresChange(
    { trade, orders, fills: all }: TradeState,
    market?: Pick<Market, 'amountStep'>,
    closeReason?: CloseReason,
  ): FiguresChange {
    const entrySide = trade.side === 'long' ? 'buy' : 'sell';
    const toFill = (f: KnownFill) => ({
      side: f.side,
      price: f.price,
      quantity: f.amount,
      fee: f.fee,
      feeCurrency: f.feeCurrency,
      feeRate: f.feeRate,
    });
    const entryFills = all.filter((f) => f.side === entrySide).map(toFill);
    const exitFills = all.filter((f) => f.side !== entrySide).map(toFill);
    const entryLive = orders.some((o) => o.role === 'entry' && (o.status === 'new' || isOpenState(o.status)));
    if (entryFills.length === 0) {
      // Cancelled only when the entry ended with nothing filled; a filled entry whose fills are not
      // stored yet (the order row is updated first) is waiting for them, not cancelled.
      const entryFilled = orders.some((o) => o.role === 'entry' && toDecimal(o.filled).gt(0));
      if (!entryLive && !entryFilled && (trade.status === 'open' || trade.status === 'closing'))
        return {
          end: {
            status: 'cancelled',
            closedAt: new Date(),
            closeReason: closeReason && !trade.closeReason ? closeReason : trade.closeReason,
          },
        };
      return {};
    }
    const pnl = computeTradePnl({
      side: trade.side,
      symbol: trade.symbol,
      entryFills,
      exitFills,
      funding: trade.funding,
    });
    const held = heldQuantity(trade, all);
    const step = toDecimal(market?.amountStep ?? '0');
    const flat = held.lte(0) || (step.gt(0) && held.lt(step));
    const closed = flat && pnl.exitQuantity.gt(0) && !entryLive;
    const lastFillAt = all.reduce((last, f) => (f.at > last ? f.at : last), all[0]!.at);
    return {
      figures: {
        quantity: toNumericString(pnl.entryQuantity),
        entryPrice: pnl.averageEntryPrice ? toNumericString(pnl.averageEntryPrice) : null,
        exitPrice: pnl.averageExitPrice ? toNumericString(pnl.averageExitPrice) : null,
        entryNotional: pnl.averageEntryPrice
          ? toNumericString(pnl.averageEntryPrice.times(pnl.entryQuantity))
          : null,
        commission: toNumericString(pnl.commission),
        realisedPnl: pnl.exitQuantity.gt(0) ? toNumericString(pnl.realisedPnl) : null,
        pnlPercent: pnl.pnlPercent ? toNumericString(pnl.pnlPercent) : null,
      },
      ...(closed && canTransitionTrade(trade.status, 'closed')
        ? {
            end: {
              status: 'closed' as const,
              closedAt: lastFillAt,
              closeReason: trade.closeReason ?? closeReason ?? endReason(all),
            },
          }
        : {}),
    };
  }

  /** The figures a state gives, to write with the order that produced it (none when nothing filled). */
  function figuresFollowUp(state: TradeState, market: Pick<Market, 'amountStep'>, closeReason?: CloseReason) {
    const { figures, end } = figuresChange(state, market, closeReason);
    return figures && { figures, end };
  }

  /** Writes the figures of a known state, only when they differ from what the row holds. */
  async function settleFigures(
    state: TradeState,
    market?: Pick<Market, 'amountStep'>,
    closeReason?: CloseReason,
  ): Promise<TradeDbRow> {
    const { figures, end } = figuresChange(state, market, closeReason);
    const row = state.trade as Record<string, unknown>;
    const differs = Object.entries({ ...figures, ...end }).some(
      ([key, value]) => !sameStoredValue(row[key], value),
    );
    if (!differs) return state.trade;
    return figures
      ? trades.setFigures(state.trade.id, figures, end)
      : trades.updateTrade(state.trade.id, end!);
  }

  /** The figures recomputed from the stored fills (see `figuresChange`). */
  async function refreshFigures(tradeId: string, market?: Pick<Market, 'amountStep'>): Promise<TradeDbRow> {
    return settleFigures((await loadState(tradeId))!, market);
  }

  /** Why a trade nobody closed on purpose ended: its take-profits did it, or something else did. */
  function endReason(fills: readonly { side: string; role: string }[]): CloseReason {
    const exits = fills.filter((f) => f.role !== 'entry');
    return exits.length > 0 && exits.every((f) => TAKE_PROFIT_ROLE.test(f.role)) ? 'take profit' : 'closed';
  }

  /**
   * Room for the stop (freqtrade's stop-loss reserve is the reference): a long's stop exit sells the same
   * quantity at a lower price, so a size that just meets the venue's minimum value at the entry falls below
   * it at the stop and the stop exit would be refused. Such an entry is refused up front instead.
   */
  function refuseBelowMinimumAtStop(
    req: OpenRequest,
    quantity: DecimalInput,
    entryPrice: DecimalInput,
    market: Market,
  ) {
    if (!req.plan.stopLossPercent) return;
    const stop = stopLossPrice({
      side: req.side,
      entryPrice,
      stopLossPercent: req.plan.stopLossPercent,
      priceTick: market.priceTick ?? FALLBACK_TICK,
    });
    const violation = orderMinimumViolation(quantity, stop, {
      minAmount: market.minAmount ?? '0',
      minNotional: market.minNotional ?? '0',
    });
    if (violation)
      throw new TradeRefusedError(
        ...apiError('SIZING_REFUSED', {
          variant: 'tooSmallForStop',
          stop: stop.toFixed(),
          ...nestedParams('error', { ...violation, code: 'ORDER_TOO_SMALL' }),
        }),
      );
  }

  /** What each account's symbols were last set to (leverage and margin mode), so it is set once, not per entry. */
  const marginSet = new Map<string, string>();

  /**
   * Before an entry that opens or adds to a futures position: the bot's leverage (its percent ÷ 100, up to
   * the next whole number: venues take integers, and more leverage only needs less margin) and margin mode
   * on the symbol, unless this process already set exactly that. A venue that refuses leaves the entry
   * unsent: trading at whatever the account was left at (often 20×) is what this prevents.
   */
  async function ensureMargin(
    gateway: ExchangeGateway,
    req: Pick<OpenRequest, 'accountId' | 'symbol'>,
    sizing: NonNullable<OpenRequest['sizing']>,
  ) {
    const leverage = venueLeverage(sizing.leveragePercent);
    const marginMode = sizing.marginMode ?? 'isolated';
    const key = `${req.accountId}|${req.symbol}`;
    const wanted = `${leverage}|${marginMode}`;
    if (marginSet.get(key) === wanted) return;
    try {
      await gateway.configureMargin(req.symbol, { leverage, mode: marginMode });
    } catch (e) {
      marginSet.delete(key);
      throw new TradeRefusedError(
        ...apiError('MARGIN_NOT_SET', {
          leverage: String(leverage),
          marginMode,
          symbol: req.symbol,
          reason: e instanceof Error ? e.message : String(e),
        }),
      );
    }
    marginSet.set(key, wanted);
  }

  /** A bot's entry size from its sizing rule, the price and the account's stable balance (DESIGN §5). */
  async function sizeEntry(gateway: ExchangeGateway, req: OpenRequest, market: Market): Promise<string> {
    if (!req.sizing) throw new TradeRefusedError(...apiError('SIZING_REFUSED', { variant: 'noRule' }));
    // Size at the price a market order will actually meet: the ask for a buy, the bid for a sell.
    const ticker = await (req.ticker?.() ?? gateway.fetchTicker(req.symbol));
    const venuePrice = req.side === 'long' ? (ticker.ask ?? ticker.last) : (ticker.bid ?? ticker.last);
    const price = sizingPrice(req.price, venuePrice, req.priceTolerancePercent);
    if (!price) throw new TradeRefusedError(...apiError('NO_PRICE', { symbol: req.symbol }));
    const balances = await (req.balances?.() ?? gateway.fetchBalances());
    const sized = sizeOrder({
      rule: sizingRuleFromBot(req.sizing),
      stableBalance: balances[req.sizing.stableCoin]?.free ?? '0',
      leveragePercent: req.sizing.leveragePercent,
      price,
      market: {
        amountStep: market.amountStep ?? '0',
        minAmount: market.minAmount ?? '0',
        minNotional: market.minNotional ?? '0',
      },
    });
    if (!sized.ok) throw new TradeRefusedError('SIZING_REFUSED', sized.message, sized.params);
    refuseBelowMinimumAtStop(req, sized.quantity, price, market);
    return toNumericString(sized.quantity);
  }

  /**
   * What can be exited now: what the trade holds rounded down to the step, and on spot no more than the
   * account has free (a fee taken in the coin, or a balance moved by hand, would get the exit refused).
   */
  async function exitQuantity(gateway: ExchangeGateway, state: TradeState, market: Market) {
    const remaining = sellableQuantity(state.trade, state.fills, market);
    // Futures positions are not balances; a spot short is not something we open.
    if (gateway.marketType !== 'spot' || state.trade.side === 'short' || remaining.lte(0)) return remaining;
    const free = toDecimal((await gateway.fetchBalances())[market.base]?.free ?? '0');
    if (free.gte(remaining)) return remaining;
    return market.amountStep ? roundDownToStep(free, market.amountStep) : free;
  }

  /**
   * Exits what the trade holds (see `close`), from a state read under the trade lock. Returns the state
   * after the exit, so the caller's follow-up needs no read of its own.
   *
   * The lifecycle invariant (DESIGN §6, docs/decisions.md): the trade stays `open` — watched by the stop —
   * until the venue accepted an exit; only then is it `closing`. Each attempt has its own client order id
   * along the retry chain of `clientOrderId`: an attempt still live (or unresolved) is resumed, never
   * doubled; a refused one is retried under the next id after a back-off. A resting order that cannot be
   * cancelled (no answer) stops the attempt with nothing changed; the next pass tries again.
   */
  async function closeState(
    gateway: ExchangeGateway,
    state: TradeState,
    clientOrderId: string,
    reason: CloseReason,
    role: string,
  ): Promise<TradeState> {
    const market = await findMarket(gateway, state.trade.symbol);
    let { trade, orders, fills } = state;
    // An id taken by another trade's order is not this trade's exit (it comes back from the insert below).
    const chain = retryChain(clientOrderId, orders);
    let exit: { order: OrderRow; created: boolean } | undefined;
    const live = chain.attempts.find((o) => o.status === 'new' || isOpenState(o.status));
    if (live) {
      exit = { order: live, created: live.status === 'new' };
    } else {
      const last = chain.attempts.at(-1);
      if (last?.status === 'rejected') {
        const wait = exitRetryDelayMs(chain.attempts.length) - (now() - last.updatedAt.getTime());
        if (wait > 0)
          throw new ExitBackoffError(
            `The last exit of this trade was refused (${last.lastError ?? 'no reason given'}); trying again in ${Math.ceil(wait / 1000)} s`,
          );
      }
      const ours = new Set(chain.attempts.map((o) => o.id));
      const resting = orders.filter((o) => isOpenState(o.status) && !ours.has(o.id));
      let filledMeanwhile = false;
      for (const order of resting) {
        // No answer (or any failure): thrown with the trade untouched, still open and watched.
        const cancelled = await executor.cancel(gateway, order);
        filledMeanwhile ||= !toDecimal(cancelled.filled).eq(order.filled);
        orders = orders.map((o) => (o.id === cancelled.id ? cancelled : o));
      }
      if (filledMeanwhile) fills = await trades.fillsOfTrade(trade.id);
      const amount = await exitQuantity(gateway, { trade, orders, fills }, market);
      if (amount.gt(0)) {
        await executor.awaitReady(trade.tradingAccountId);
        // Committed as submitted: from now on it may be at the venue (a retry looks it up first).
        const { tradeId: _, ...values } = marketExitOrder(gateway, trade, {
          clientOrderId: chain.next,
          role,
          amount,
        });
        exit = await trades.insertExitOrder(
          trade.id,
          { ...values, status: 'submitted' },
          commitBeforeCall(gateway),
        );
      }
    }
    if (exit) {
      const own = exit.order.tradeId === trade.id;
      const withExit = (order: OrderRow, exitFills: KnownFill[]): TradeState => {
        const known = new Set(exitFills.map((f) => f.venueTradeId));
        return {
          trade,
          orders: [...orders.filter((o) => o.id !== order.id), order],
          fills: [...fills.filter((f) => f.orderId !== order.id || !known.has(f.venueTradeId)), ...exitFills],
        };
      };
      // The trade's figures after the exit are written with the exit's answer when all its fills come with it.
      const placed = await executor.place(
        gateway,
        exit.order,
        exit.created,
        own ? (order, exitFills) => figuresFollowUp(withExit(order, exitFills), market, reason) : undefined,
      );
      if (!own) {
        // An id taken by another trade's order: nothing of this trade to learn from it.
      } else if (placed.fills) {
        ({ orders, fills } = withExit(placed.order, placed.fills));
        if (placed.trade) trade = placed.trade;
      } else {
        orders = [...orders.filter((o) => o.id !== placed.order.id), placed.order];
        fills = await trades.fillsOfTrade(trade.id);
      }
      // Accepted by the venue: from now on the trade is closing (unless its fills closed it already).
      if (own && trade.status === 'open' && isAccepted(placed.order))
        trade = await trades.updateTrade(trade.id, { status: 'closing', closeReason: reason });
    }
    trade = await settleFigures({ trade, orders, fills }, market, reason);
    if ((trade.status === 'closed' || trade.status === 'cancelled') && !trade.closeReason)
      trade = await trades.updateTrade(trade.id, { closeReason: reason });
    return { trade, orders, fills };
  }

  return {
    loadState,
    settleFigures,
    refreshFigures,
    closeState,

    /**
     * Sizes and sends an entry at market. The trade and its entry order are committed first;
     * a second call with the same client order id resumes that trade instead of opening another.
     */
    async open(gateway: ExchangeGateway, req: OpenRequest): Promise<TradeDbRow> {
      const resume = async (existing: OrderRow) => {
        await executor.submit(gateway, existing, false);
        return refreshFigures(existing.tradeId);
      };
      const existing =
        req.knownEntry !== undefined
          ? req.knownEntry
          : await trades.findOrderByClientId(req.accountId, req.clientOrderId);
      if (existing) return resume(existing);
      const market = await findMarket(gateway, req.symbol);
      const quantity = req.quantity ?? (await sizeEntry(gateway, req, market));
      if (gateway.marketType === 'future' && req.sizing) await ensureMargin(gateway, req, req.sizing);
      // The gate first: the entry is committed as submitted, so from then on it may be at the venue.
      await executor.awaitReady(req.accountId);
      const entry = {
        userId: req.userId,
        tradingAccountId: req.accountId,
        clientOrderId: req.clientOrderId,
        role: 'entry',
        symbol: req.symbol,
        side: req.side === 'long' ? ('buy' as const) : ('sell' as const),
        type: req.limitPrice ? ('limit' as const) : ('market' as const),
        price: req.limitPrice ?? null,
        amount: quantity,
        status: 'submitted' as const,
      };
      const plan = {
        userId: req.userId,
        botId: req.botId,
        tradingAccountId: req.accountId,
        strategyId: req.strategyId,
        alertId: req.alertId,
        symbol: req.symbol,
        side: req.side,
        takeProfits: req.plan.takeProfits,
        stopLossPercent: req.plan.stopLossPercent,
        breakEvenAfterTp1: req.plan.breakEvenAfterTp1,
        stopLimitOffsetPercent: req.plan.stopLimitOffsetPercent ?? null,
        // The leverage the venue was set to for it (a whole number: see venueLeverage), in percent.
        leveragePercent:
          gateway.marketType === 'future' && req.sizing
            ? String(venueLeverage(req.sizing.leveragePercent) * 100)
            : null,
      };
      const created = req.tradeId
        ? await trades.insertTradeWithEntry({ ...plan, id: req.tradeId }, entry, commitBeforeCall(gateway))
        : await trades.createTradeWithEntry(plan, entry, commitBeforeCall(gateway));
      if (!created) {
        // Another run of the same alert may have committed this entry since it was looked up: resume it.
        const raced = await trades.findOrderByClientId(req.accountId, req.clientOrderId);
        if (raced) return resume(raced);
        throw new TradeRefusedError(...apiError('TRADE_ALREADY_OPEN'));
      }
      let placed;
      try {
        // A new trade's only fills are its entry's: when they come with the answer, its figures are written
        // with the order.
        placed = await executor.place(gateway, created.order, true, (order, entryFills) =>
          figuresFollowUp({ trade: created.trade, orders: [order], fills: entryFills }, market),
        );
        if (placed.order.status === 'rejected') {
          const refusal = orderRefusal(placed.order);
          throw new TradeRefusedError(
            ...(refusal
              ? apiError('ORDER_REJECTED', nestedParams('reason', refusal))
              : apiError('ORDER_REJECTED', { variant: 'rejected' })),
          );
        }
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const row = await trades.findOrderByClientId(req.accountId, req.clientOrderId);
        // A refused entry leaves an errored trade behind so the user sees why nothing opened — with the
        // refusal's code and params, so the web says it in the user's language.
        const coded = e instanceof DomainRuleError || e instanceof ExchangeGatewayError;
        if (row?.status === 'rejected')
          await trades.updateTrade(created.trade.id, {
            status: 'error',
            error: message,
            errorCode: coded ? e.code : null,
            errorParams: (coded && e.params) || null,
            closedAt: new Date(),
          });
        throw e;
      }
      if (placed.trade) return placed.trade;
      if (!placed.fills) return refreshFigures(created.trade.id, market);
      return settleFigures({ trade: created.trade, orders: [placed.order], fills: placed.fills }, market);
    },

    /**
     * Cancels the trade's resting orders (a resting entry too), then exits what is left at market
     * (reduce-only on futures). `clientOrderId` makes it idempotent: called again, it resumes that exit.
     */
    async close(
      gateway: ExchangeGateway,
      trade: TradeDbRow,
      clientOrderId: string,
      reason: CloseReason,
      role = 'exit',
    ): Promise<TradeDbRow> {
      const state = (await loadState(trade.id)) ?? { trade, orders: [], fills: [] };
      return (await closeState(gateway, { ...state, trade }, clientOrderId, reason, role)).trade;
    },
  };
}
