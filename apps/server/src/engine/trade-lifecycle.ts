import {
  canTransitionTrade,
  computeTradePnl,
  isOpenState,
  roundDownToStep,
  sizeOrder,
  sizingRuleFromBot,
  toDecimal,
  toNumericString,
  type DecimalInput,
} from '@kairos/core';
import type { ExchangeGateway, Market } from '../exchange/gateway';
import { DomainRuleError } from '../lib/errors';
import { heldQuantity } from '../modules/trades/trades-fns';
import type { TradeDbRow, TradesRepo } from '../modules/trades/trades-repo';
import type { OrderExecutor } from './order-executor';

export type OpenRequest = {
  userId: string;
  botId: string | null;
  accountId: string;
  strategyId: string | null;
  alertId: string | null;
  symbol: string;
  side: 'long' | 'short';
  clientOrderId: string;
  /** The signal's price when it carried one; else the venue's last price. */
  price?: string | null;
  /** Manual trades: the trade's id (chosen by the caller), the base quantity and an optional limit price. */
  tradeId?: string;
  quantity?: string;
  limitPrice?: string | null;
  sizing?: {
    fixedAmount: string | null;
    portfolioPercent: string | null;
    leveragePercent: string;
    stableCoin: string;
  };
  plan: {
    takeProfits: { role: string; percent: string; sizePercent: string }[];
    stopLossPercent: string | null;
    breakEvenAfterTp1: boolean;
  };
};

export class TradeRefusedError extends DomainRuleError {}

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
    throw new TradeRefusedError(`${symbol} is not traded on ${gateway.exchangeId}`, 'UNKNOWN_SYMBOL');
  return market;
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

/** Opening and closing trades on a venue, and keeping a trade's figures equal to its fills. */
export type TradeLifecycle = ReturnType<typeof createTradeLifecycle>;

export function createTradeLifecycle(deps: { trades: TradesRepo; executor: OrderExecutor }) {
  const { trades, executor } = deps;

  /**
   * Quantity, prices, PnL, commission and status recomputed in decimal from the stored fills. A trade
   * is closed once it exited something and what it still holds is below the venue's amount step (base
   * fee dust cannot be sold); a trade whose entry ended without any fill is cancelled.
   */
  async function refreshFigures(tradeId: string, market?: Pick<Market, 'amountStep'>): Promise<TradeDbRow> {
    const trade = (await trades.findById(tradeId))!;
    const all = await trades.fillsOfTrade(tradeId);
    const entrySide = trade.side === 'long' ? 'buy' : 'sell';
    const toFill = (f: (typeof all)[number]) => ({
      side: f.side,
      price: f.price,
      quantity: f.amount,
      fee: f.fee,
      feeCurrency: f.feeCurrency,
    });
    const entryFills = all.filter((f) => f.side === entrySide).map(toFill);
    const exitFills = all.filter((f) => f.side !== entrySide).map(toFill);
    const entryLive = (await trades.ordersOfTrade(tradeId)).some(
      (o) => o.role === 'entry' && (o.status === 'new' || isOpenState(o.status)),
    );
    if (entryFills.length === 0) {
      if (!entryLive && (trade.status === 'open' || trade.status === 'closing'))
        return trades.updateTrade(tradeId, { status: 'cancelled', closedAt: new Date() });
      return trade;
    }
    const pnl = computeTradePnl({ side: trade.side, symbol: trade.symbol, entryFills, exitFills });
    const held = heldQuantity(trade, all);
    const step = toDecimal(market?.amountStep ?? '0');
    const flat = held.lte(0) || (step.gt(0) && held.lt(step));
    const closed = flat && pnl.exitQuantity.gt(0) && !entryLive;
    const lastFillAt = all[all.length - 1]!.at;
    return trades.updateTrade(tradeId, {
      quantity: toNumericString(pnl.entryQuantity),
      entryPrice: pnl.averageEntryPrice ? toNumericString(pnl.averageEntryPrice) : null,
      exitPrice: pnl.averageExitPrice ? toNumericString(pnl.averageExitPrice) : null,
      entryNotional: pnl.averageEntryPrice
        ? toNumericString(pnl.averageEntryPrice.times(pnl.entryQuantity))
        : null,
      commission: toNumericString(pnl.commission),
      realisedPnl: pnl.exitQuantity.gt(0) ? toNumericString(pnl.realisedPnl) : null,
      pnlPercent: pnl.pnlPercent ? toNumericString(pnl.pnlPercent) : null,
      ...(closed && canTransitionTrade(trade.status, 'closed')
        ? {
            status: 'closed' as const,
            closedAt: lastFillAt,
            closeReason: trade.closeReason ?? endReason(all),
          }
        : {}),
    });
  }

  /** Why a trade nobody closed on purpose ended: its take-profits did it, or something else did. */
  function endReason(fills: readonly { side: string; role: string }[]): string {
    const exits = fills.filter((f) => f.role !== 'entry');
    return exits.length > 0 && exits.every((f) => /^tp\d+$/.test(f.role)) ? 'take profit' : 'closed';
  }

  /** What can still be sold (long) or bought back (short): held quantity rounded down to the step. */
  async function sellableQuantity(tradeId: string, market: Pick<Market, 'amountStep'>) {
    const trade = (await trades.findById(tradeId))!;
    const held = heldQuantity(trade, await trades.fillsOfTrade(tradeId));
    if (held.lte(0)) return toDecimal(0);
    return market.amountStep ? roundDownToStep(held, market.amountStep) : held;
  }

  /** A bot's entry size from its sizing rule, the price and the account's stable balance (DESIGN §5). */
  async function sizeEntry(gateway: ExchangeGateway, req: OpenRequest, market: Market): Promise<string> {
    if (!req.sizing) throw new TradeRefusedError('No quantity and no sizing rule', 'SIZING_REFUSED');
    // Size at the price a market order will actually meet: the ask for a buy, the bid for a sell.
    const ticker = req.price ? undefined : await gateway.fetchTicker(req.symbol);
    const price =
      req.price ?? (req.side === 'long' ? (ticker?.ask ?? ticker?.last) : (ticker?.bid ?? ticker?.last));
    if (!price) throw new TradeRefusedError(`No price for ${req.symbol}`, 'NO_PRICE');
    const balances = await gateway.fetchBalances();
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
    if (!sized.ok) throw new TradeRefusedError(sized.message, 'SIZING_REFUSED');
    return toNumericString(sized.quantity);
  }

  return {
    refreshFigures,
    sellableQuantity,

    /**
     * Sizes and sends an entry at market. The trade and its entry order are committed first;
     * a second call with the same client order id resumes that trade instead of opening another.
     */
    async open(gateway: ExchangeGateway, req: OpenRequest): Promise<TradeDbRow> {
      const existing = await trades.findOrderByClientId(req.accountId, req.clientOrderId);
      if (existing) {
        await executor.submit(gateway, existing, false);
        return refreshFigures(existing.tradeId);
      }
      const market = await findMarket(gateway, req.symbol);
      const quantity = req.quantity ?? (await sizeEntry(gateway, req, market));
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
      };
      const created = req.tradeId
        ? await trades.insertTradeWithEntry({ ...plan, id: req.tradeId }, entry)
        : await trades.createTradeWithEntry(plan, entry);
      if (!created) throw new TradeRefusedError('This bot already holds an open trade', 'TRADE_ALREADY_OPEN');
      try {
        const order = await executor.submit(gateway, created.order, true);
        if (order.status === 'rejected')
          throw new TradeRefusedError(order.lastError ?? 'Order rejected', 'ORDER_REJECTED');
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const row = await trades.findOrderByClientId(req.accountId, req.clientOrderId);
        // A refused entry leaves an errored trade behind so the user sees why nothing opened.
        if (row?.status === 'rejected')
          await trades.updateTrade(created.trade.id, {
            status: 'error',
            error: message,
            closedAt: new Date(),
          });
        throw e;
      }
      return refreshFigures(created.trade.id);
    },

    /**
     * Cancels the trade's resting orders (a resting entry too), then exits what is left at market
     * (reduce-only on futures). `clientOrderId` makes it idempotent: called again, it resumes that exit.
     */
    async close(
      gateway: ExchangeGateway,
      trade: TradeDbRow,
      clientOrderId: string,
      reason: string,
      role = 'exit',
    ): Promise<TradeDbRow> {
      const market = await findMarket(gateway, trade.symbol);
      const existing = await trades.findOrderByClientId(trade.tradingAccountId, clientOrderId);
      if (!existing) {
        const hasPosition = (await trades.fillsOfTrade(trade.id)).length > 0;
        if (trade.status === 'open' && hasPosition)
          await trades.updateTrade(trade.id, { status: 'closing', closeReason: reason });
        for (const order of await trades.ordersOfTrade(trade.id)) {
          if (isOpenState(order.status)) await executor.cancel(gateway, order);
        }
        await refreshFigures(trade.id, market);
      }
      const remaining = await sellableQuantity(trade.id, market);
      if (existing || remaining.gt(0)) {
        const { order } = existing
          ? { order: existing }
          : await trades.insertOrder(
              marketExitOrder(gateway, trade, { clientOrderId, role, amount: remaining }),
            );
        await executor.submit(gateway, order, !existing);
      }
      const updated = await refreshFigures(trade.id, market);
      if ((updated.status === 'closed' || updated.status === 'cancelled') && !updated.closeReason)
        return trades.updateTrade(trade.id, { closeReason: reason });
      return updated;
    },
  };
}
