import type { UserOrder } from '@kairos/contract';
import { isOpenState, toDecimal } from '@kairos/core';
import type { OwnedOrderRow } from './orders-repo';

const plain = (value: string) => toDecimal(value).toFixed();

/**
 * Whether cancelling this order is something the product already does (issue 21): a trade's entry still
 * resting at the venue with nothing filled, on a trade that is open. Completing that trade cancels its
 * resting orders first and, nothing having been bought, sends no exit: the order is cancelled and the trade
 * with it. Anything else is part of a position and is steered from its trade (close, push, edit).
 */
export function isCancellableEntry(row: Pick<OwnedOrderRow, 'order' | 'tradeStatus'>): boolean {
  const { order } = row;
  return (
    row.tradeStatus === 'open' &&
    order.role === 'entry' &&
    isOpenState(order.status) &&
    toDecimal(order.filled).eq(0)
  );
}

/** filled ÷ amount as a percent with two decimals ('0' for an order of no amount). */
export function filledPercent(filled: string, amount: string): string {
  const total = toDecimal(amount);
  if (total.lte(0)) return '0';
  return toDecimal(filled).div(total).times(100).toDecimalPlaces(2).toFixed();
}

export function toUserOrder(row: OwnedOrderRow): UserOrder {
  const { order } = row;
  return {
    id: order.id,
    tradeId: order.tradeId,
    tradeStatus: row.tradeStatus,
    botId: row.botId,
    botName: row.botName,
    tradingAccountId: order.tradingAccountId,
    accountName: row.accountName,
    sandbox: row.sandbox,
    symbol: order.symbol,
    role: order.role,
    side: order.side,
    type: order.type,
    price: order.price === null ? null : plain(order.price),
    amount: plain(order.amount),
    filled: plain(order.filled),
    filledPercent: filledPercent(order.filled, order.amount),
    status: order.status,
    lastError: order.lastError,
    lastErrorCode: order.lastErrorCode,
    lastErrorParams: order.lastErrorParams,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    cancellable: isCancellableEntry(row),
  };
}
