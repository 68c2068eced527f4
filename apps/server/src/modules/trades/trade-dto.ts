import type {
  Trade,
  TradeCompletion,
  TradeDetail,
  TradeFill,
  TradeOrder,
  TradeProtection,
  TradeRow,
} from '@kairos/contract';
import { toDecimal, toNumericString } from '@kairos/core';
import type { trades } from '../../db/schema/index';
import { heldQuantity, ladderView } from '../../engine/trades-fns';
import type { FillRow, OrderRow } from '../../engine/trades-repo';
import type { VenueStopRow } from '../../engine/venue-stops-repo';
import { estimatePush, type TradeMark } from './trade-marks';

type TradeDbRow = typeof trades.$inferSelect;

/** `numeric` columns come back padded to 18 decimals: answer '0.005', not '0.005000000000000000'. */
export function plain<T extends string | null>(value: T): T {
  return (value === null ? null : toDecimal(value).toFixed()) as T;
}
type FillWithOrder = FillRow & { side: 'buy' | 'sell'; role: string };

/** A trade's row; an open one marked at the last price when `mark` is given (issue 21). */
export function toTradeRow(t: TradeDbRow, mark?: TradeMark): TradeRow {
  return {
    id: t.id,
    botId: t.botId,
    tradingAccountId: t.tradingAccountId,
    symbol: t.symbol,
    side: t.side,
    status: t.status,
    quantity: plain(t.quantity),
    entryPrice: plain(t.entryPrice),
    exitPrice: plain(t.exitPrice),
    pnl: plain(t.realisedPnl),
    pnlPercent: plain(t.pnlPercent),
    pnlMarginPercent:
      t.pnlPercent !== null && t.leveragePercent !== null
        ? plain(toNumericString(toDecimal(t.pnlPercent).times(t.leveragePercent).div(100)))
        : null,
    leveragePercent: plain(t.leveragePercent),
    commission: plain(t.commission),
    funding: plain(t.funding),
    durationMs: t.closedAt ? Math.max(0, t.closedAt.getTime() - t.openedAt.getTime()) : null,
    openedAt: t.openedAt.toISOString(),
    closedAt: t.closedAt?.toISOString() ?? null,
    closeReason: t.closeReason,
    error: t.error,
    errorCode: t.errorCode,
    errorParams: t.errorParams,
    ...mark?.fields,
  };
}

export function toTradeOrder(o: OrderRow): TradeOrder {
  return {
    id: o.id,
    role: o.role,
    clientOrderId: o.clientOrderId,
    venueOrderId: o.venueOrderId,
    side: o.side,
    type: o.type,
    reduceOnly: o.reduceOnly,
    price: plain(o.price),
    amount: plain(o.amount),
    filled: plain(o.filled),
    average: plain(o.average),
    status: o.status,
    lastError: o.lastError,
    lastErrorCode: o.lastErrorCode,
    lastErrorParams: o.lastErrorParams,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

function toTradeFill(f: FillWithOrder): TradeFill {
  return {
    id: f.id,
    orderId: f.orderId,
    role: f.role,
    side: f.side,
    venueTradeId: f.venueTradeId,
    price: plain(f.price),
    amount: plain(f.amount),
    fee: plain(f.fee),
    feeCurrency: f.feeCurrency,
    at: f.at.toISOString(),
  };
}

function toTrade(t: TradeDbRow, fills: readonly FillWithOrder[], mark?: TradeMark): Trade {
  const held = heldQuantity(t, fills);
  return {
    ...toTradeRow(t, mark),
    strategyId: t.strategyId,
    alertId: t.alertId,
    takeProfits: t.takeProfits,
    stopLossPercent: plain(t.stopLossPercent),
    stopLossPrice: plain(t.stopLossPrice),
    breakEvenAfterTp1: t.breakEvenAfterTp1,
    stopMovedToBreakEven: t.stopMovedToBreakEvenAt !== null,
    openQuantity: toNumericString(held.gt(0) ? held : 0),
  };
}

/**
 * Where an open trade's stop lives (issue 18): on the venue when one of its stops rests there ('open') at the
 * trade's stop price, else watched by Kairos when it has a stop price, else nowhere. Null when there is nothing
 * to protect: the trade is not open, or holds nothing yet. `stops` oldest first (the repo's `ofTrade`).
 */
function toProtection(
  t: TradeDbRow,
  fills: readonly FillWithOrder[],
  stops: readonly VenueStopRow[],
): TradeProtection | null {
  if (t.status !== 'open' || !heldQuantity(t, fills).gt(0)) return null;
  const none = { venueOrderId: null, triggerPrice: null, since: null, venueRefused: false };
  if (t.stopLossPrice === null) return { where: 'none', ...none };
  const stopPrice = toDecimal(t.stopLossPrice);
  const resting = stops.findLast((s) => s.status === 'open' && toDecimal(s.triggerPrice).eq(stopPrice));
  if (resting)
    return {
      where: 'venue',
      venueOrderId: resting.venueOrderId,
      triggerPrice: plain(resting.triggerPrice),
      since: resting.updatedAt.toISOString(),
      venueRefused: false,
    };
  return {
    ...none,
    where: 'kairos',
    triggerPrice: plain(t.stopLossPrice),
    venueRefused: stops.at(-1)?.status === 'rejected',
  };
}

/** TradeDetail: the trade, its ladder with each level's status, and the orders and fills timeline. */
export function toTradeDetail(
  t: TradeDbRow,
  orders: readonly OrderRow[],
  fills: readonly FillWithOrder[],
  stops: readonly VenueStopRow[],
  mark?: TradeMark,
): TradeDetail {
  const timeline: TradeDetail['timeline'] = [
    ...orders.map((o) => ({
      at: o.createdAt.toISOString(),
      kind: 'order' as const,
      role: o.role,
      side: o.side,
      orderId: o.id,
      status: o.status,
      price: plain(o.type === 'limit' ? o.price : o.average),
      amount: plain(o.amount),
    })),
    ...fills.map((f) => ({
      at: f.at.toISOString(),
      kind: 'fill' as const,
      role: f.role,
      side: f.side,
      orderId: f.orderId,
      status: 'filled',
      price: plain(f.price),
      amount: plain(f.amount),
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return {
    trade: toTrade(t, fills, mark),
    protection: toProtection(t, fills, stops),
    ladder: ladderView(t.takeProfits, orders, t.status).map((level) =>
      level.pushable && mark ? { ...level, estimatedPushPnl: estimatePush(t, level, mark) } : level,
    ),
    orders: orders.map(toTradeOrder),
    fills: fills.map(toTradeFill),
    timeline,
  };
}

export function toTradeCompletion(t: TradeDbRow, exitOrder: OrderRow | undefined): TradeCompletion {
  return {
    tradeId: t.id,
    completed: t.status === 'closed' || t.status === 'cancelled',
    status: t.status,
    closeReason: t.closeReason,
    closedAt: t.closedAt?.toISOString() ?? null,
    exitPrice: plain(t.exitPrice),
    pnl: plain(t.realisedPnl),
    pnlPercent: plain(t.pnlPercent),
    order: exitOrder ? toTradeOrder(exitOrder) : null,
  };
}
