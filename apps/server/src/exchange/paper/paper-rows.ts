import { dec } from '../decimal';
import type { Fill, Order, StopOrder } from '../gateway';
import type { PaperFillRow, PaperOrderRow, PaperStopRow } from './paper-ledger-store';
import { LIQUIDATION_ORDER_ID_PREFIX } from './paper-liquidation';

// The ledger's rows as the gateway sees them: orders, stops and fills.

export function isOpen(order: PaperOrderRow): boolean {
  return order.status === 'open' || order.status === 'partially_filled';
}

export function toOrder(row: PaperOrderRow): Order {
  const filled = dec(row.filled);
  return {
    venueOrderId: row.venueOrderId,
    clientOrderId: row.clientOrderId,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    status: row.status,
    price: row.price,
    amount: row.amount,
    filled: row.filled,
    average: filled.gt(0) ? dec(row.cost).div(filled).toDecimalPlaces(12).toFixed() : null,
    fee: dec(row.fee).gt(0) ? { cost: row.fee, currency: row.feeCurrency } : null,
    reduceOnly: row.reduceOnly,
    timestamp: row.createdAt,
    ...(row.clientOrderId?.startsWith(LIQUIDATION_ORDER_ID_PREFIX) ? { liquidation: true } : {}),
  };
}

export function toStopOrder(row: PaperStopRow): StopOrder {
  return {
    venueOrderId: row.venueOrderId,
    clientOrderId: row.clientOrderId,
    symbol: row.symbol,
    side: row.side,
    amount: row.amount,
    triggerPrice: row.triggerPrice,
    limitPrice: row.limitPrice,
    status: row.status,
    // A stop-limit's limit order is known from its placement on, but is the stop's order only once triggered.
    triggeredOrderId: row.status === 'triggered' ? row.triggeredOrderId : null,
    timestamp: row.createdAt,
  };
}

export function toFill(row: PaperFillRow): Fill {
  return {
    venueTradeId: row.venueTradeId,
    venueOrderId: row.venueOrderId,
    symbol: row.symbol,
    side: row.side,
    price: row.price,
    amount: row.amount,
    cost: row.cost,
    fee: row.fee,
    feeCurrency: row.feeCurrency,
    takerOrMaker: row.takerOrMaker,
    timestamp: row.timestamp,
  };
}
