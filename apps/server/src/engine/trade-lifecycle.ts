import { computeTradePnl, sizeOrder, sizingRuleFromBot, toDecimal, toNumericString } from '@kairos/core';
import type { ExchangeGateway, Market } from '../exchange/gateway';
import { DomainRuleError } from '../lib/errors';
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
  sizing: {
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

/** Opening and closing trades on a venue, and keeping a trade's figures equal to its fills. */
export type TradeLifecycle = ReturnType<typeof createTradeLifecycle>;

export function createTradeLifecycle(deps: { trades: TradesRepo; executor: OrderExecutor }) {
  const { trades, executor } = deps;

  /** Quantity, prices, PnL, commission and status recomputed in decimal from the stored fills. */
  async function refreshFigures(tradeId: string): Promise<TradeDbRow> {
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
    if (entryFills.length === 0) return trade;
    const pnl = computeTradePnl({ side: trade.side, symbol: trade.symbol, entryFills, exitFills });
    const closed = pnl.openQuantity.lte(0) && pnl.exitQuantity.gt(0);
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
      ...(closed && trade.status !== 'closed' ? { status: 'closed' as const, closedAt: lastFillAt } : {}),
    });
  }

  async function openQuantity(tradeId: string) {
    const trade = (await trades.findById(tradeId))!;
    const all = await trades.fillsOfTrade(tradeId);
    const entrySide = trade.side === 'long' ? 'buy' : 'sell';
    return all.reduce((q, f) => (f.side === entrySide ? q.plus(f.amount) : q.minus(f.amount)), toDecimal(0));
  }

  return {
    refreshFigures,

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
      const price = req.price ?? (await gateway.fetchTicker(req.symbol)).last;
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

      const created = await trades.createTradeWithEntry(
        {
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
        },
        {
          userId: req.userId,
          tradingAccountId: req.accountId,
          clientOrderId: req.clientOrderId,
          role: 'entry',
          symbol: req.symbol,
          side: req.side === 'long' ? 'buy' : 'sell',
          type: 'market',
          amount: toNumericString(sized.quantity),
        },
      );
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

    /** Cancels the trade's resting orders, then exits what is left at market (reduce-only). */
    async close(
      gateway: ExchangeGateway,
      trade: TradeDbRow,
      clientOrderId: string,
      reason: string,
    ): Promise<TradeDbRow> {
      const existing = await trades.findOrderByClientId(trade.tradingAccountId, clientOrderId);
      if (!existing) {
        if (trade.status === 'open')
          await trades.updateTrade(trade.id, { status: 'closing', closeReason: reason });
        for (const order of await trades.ordersOfTrade(trade.id)) {
          if (
            order.role !== 'entry' &&
            ['open', 'partially_filled', 'submitted', 'unknown'].includes(order.status)
          ) {
            await executor.cancel(gateway, order);
          }
        }
        await refreshFigures(trade.id);
      }
      const remaining = await openQuantity(trade.id);
      if (!existing && remaining.lte(0)) return refreshFigures(trade.id);
      const { order } = existing
        ? { order: existing }
        : await trades.insertOrder({
            tradeId: trade.id,
            userId: trade.userId,
            tradingAccountId: trade.tradingAccountId,
            clientOrderId,
            role: 'exit',
            symbol: trade.symbol,
            side: trade.side === 'long' ? 'sell' : 'buy',
            type: 'market',
            reduceOnly: gateway.marketType === 'future',
            amount: toNumericString(remaining),
          });
      await executor.submit(gateway, order, !existing);
      const updated = await refreshFigures(trade.id);
      if (updated.status === 'closed' && !updated.closeReason)
        return trades.updateTrade(trade.id, { closeReason: reason });
      return updated;
    },
  };
}
