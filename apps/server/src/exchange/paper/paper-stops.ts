import { Decimal, ZERO, dec } from '../decimal';
import { InvalidOrderError } from '../errors';
import type { AccountMarketType, CreateOrderRequest, StopOrderRequest } from '../gateway';
import type { AccountSession } from './paper-account-session';
import type { PaperDesk } from './paper-desk';
import { bookFutures, closable, positionOf } from './paper-futures';
import type { PaperStopRow } from './paper-ledger-store';
import type { PaperMarketSpec } from './paper-markets';

// Reduce-only stop-market orders resting on a futures position, and what one does when the path crosses it.

/** Client ids of the orders triggered stops send: the stop's venue order id after it. */
const TRIGGERED_ORDER_ID_PREFIX = 'stop-';

/**
 * A new stop resting in the session, once its request is checked: refused when there is no position it
 * would reduce and when the price is already through its trigger.
 */
export async function openStop(
  desk: PaperDesk,
  session: AccountSession,
  spec: PaperMarketSpec,
  marketType: AccountMarketType,
  request: StopOrderRequest,
  { amount, triggerPrice }: { amount: Decimal; triggerPrice: Decimal },
): Promise<PaperStopRow> {
  const now = desk.clock();
  const held = dec((await positionOf(desk, session.ledger, spec.symbol)).amount);
  if (closable(held, request.side).isZero()) {
    throw new InvalidOrderError(
      `Reduce-only stop would open or increase a position: no ${request.side === 'sell' ? 'long' : 'short'} position on ${spec.symbol}`,
    );
  }
  const price = desk.market.price(spec.symbol, now);
  if (request.side === 'sell' ? triggerPrice.gte(price) : triggerPrice.lte(price)) {
    throw new InvalidOrderError(
      `Order would immediately trigger: ${request.side} stop at ${triggerPrice.toFixed()} with the price at ${price.toFixed()}`,
    );
  }
  const stop: PaperStopRow = {
    venueOrderId: desk.newId(),
    clientOrderId: request.clientOrderId,
    marketType,
    symbol: spec.symbol,
    side: request.side,
    amount: amount.toFixed(),
    triggerPrice: triggerPrice.toFixed(),
    status: 'open',
    triggeredOrderId: null,
    createdAt: now,
    updatedAt: now,
    checkedUntil: now,
  };
  session.addStop(stop);
  session.recordStop(stop);
  return stop;
}

/**
 * The stop's trigger was crossed at `at`: it sends a reduce-only market order of its amount, capped at the
 * position then (Binance's reduce-only), taking the book as it was then, booked exactly as any market
 * order (fills, taker fees, the position and its margin). Nothing left to reduce: the stop expires
 * without an order, as Binance expires a reduce-only order that would open or increase a position.
 */
export async function triggerStop(
  desk: PaperDesk,
  session: AccountSession,
  stop: PaperStopRow,
  at: number,
): Promise<void> {
  const spec = desk.spec(stop.symbol);
  const position = await positionOf(desk, session.ledger, spec.symbol);
  const amount = Decimal.min(stop.amount, closable(dec(position.amount), stop.side));
  stop.updatedAt = at;
  stop.checkedUntil = at;
  if (amount.isZero()) {
    stop.status = 'expired';
  } else {
    // A client id of its own, outside Kairos' (alphanumeric) ones and longer than a request may send, as
    // Binance's algo service gives the order a triggered stop sends an id of its own.
    const request: CreateOrderRequest = {
      symbol: spec.symbol,
      side: stop.side,
      type: 'market',
      amount: amount.toFixed(),
      reduceOnly: true,
      clientOrderId: `${TRIGGERED_ORDER_ID_PREFIX}${stop.venueOrderId}`,
    };
    const checked = { spec, request, amount, price: null };
    // Not checked for funds as a placed order is: a close is never refused, the margin it frees pays its fee.
    const order = await bookFutures(desk, session, checked, at, desk.take(checked, at), ZERO);
    stop.status = 'triggered';
    stop.triggeredOrderId = order.venueOrderId;
  }
  session.saveStop(stop);
  session.recordStop(stop);
}
