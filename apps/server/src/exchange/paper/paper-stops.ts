import { Decimal, ZERO, dec } from '../decimal';
import { InvalidOrderError } from '../errors';
import type { AccountMarketType, CreateOrderRequest, StopOrderRequest } from '../gateway';
import type { AccountSession } from './paper-account-session';
import { requireFree, type CheckedOrder, type PaperDesk } from './paper-desk';
import { bookFutures, closable, positionOf } from './paper-futures';
import type { PaperOrderRow, PaperStopRow } from './paper-ledger-store';
import { roundUp } from './paper-matching';
import type { PaperMarketSpec } from './paper-markets';
import { executeSpot } from './paper-spot';

// Stops resting on the venue and what one does when the path crosses it: reduce-only stop-markets on a
// futures position, stop-limits on spot (whose limit order holds the coins it sells from its placement on).

/** Client ids of the orders triggered stops send: the stop's venue order id after it. */
const TRIGGERED_ORDER_ID_PREFIX = 'stop-';

/** A stop's request, checked (`validateStop`). */
export interface CheckedStop {
  amount: Decimal;
  triggerPrice: Decimal;
  /** A spot stop-limit's; null for a futures stop-market. */
  limitPrice: Decimal | null;
}

/**
 * The order a triggered stop sends: a client id of its own, outside Kairos' (alphanumeric) ones and longer
 * than a request may send, as Binance's algo service gives the order a triggered stop sends an id of its own.
 */
function triggeredOrder(
  spec: PaperMarketSpec,
  stopId: string,
  side: CreateOrderRequest['side'],
  amount: Decimal,
  limitPrice: Decimal | null,
): CheckedOrder {
  const request: CreateOrderRequest = {
    symbol: spec.symbol,
    side,
    type: limitPrice ? 'limit' : 'market',
    amount: amount.toFixed(),
    ...(limitPrice ? { price: limitPrice.toFixed() } : { reduceOnly: true }),
    clientOrderId: `${TRIGGERED_ORDER_ID_PREFIX}${stopId}`,
  };
  return { spec, request, amount, price: limitPrice };
}

/**
 * A new stop resting in the session, once its request is checked: refused when the price is already through
 * its trigger, a futures stop when there is no position it would reduce, a spot stop-limit when the account
 * has too little free to reserve for it (the base it sells; a buy's quote at its limit, with the fee).
 */
export async function openStop(
  desk: PaperDesk,
  session: AccountSession,
  spec: PaperMarketSpec,
  marketType: AccountMarketType,
  request: StopOrderRequest,
  { amount, triggerPrice, limitPrice }: CheckedStop,
): Promise<PaperStopRow> {
  const now = desk.clock();
  if (marketType === 'future') {
    const held = dec((await positionOf(desk, session.ledger, spec.symbol)).amount);
    if (closable(held, request.side).isZero()) {
      throw new InvalidOrderError(
        `Reduce-only stop would open or increase a position: no ${request.side === 'sell' ? 'long' : 'short'} position on ${spec.symbol}`,
      );
    }
  }
  const price = desk.market.price(spec.symbol, now);
  if (request.side === 'sell' ? triggerPrice.gte(price) : triggerPrice.lte(price)) {
    throw new InvalidOrderError(
      `Order would immediately trigger: ${request.side} stop at ${triggerPrice.toFixed()} with the price at ${price.toFixed()}`,
    );
  }
  const venueOrderId = desk.newId();
  const limitOrder = limitPrice
    ? await reserveLimitOrder(
        desk,
        session,
        triggeredOrder(spec, venueOrderId, request.side, amount, limitPrice),
      )
    : null;
  const stop: PaperStopRow = {
    venueOrderId,
    clientOrderId: request.clientOrderId,
    marketType,
    symbol: spec.symbol,
    side: request.side,
    amount: amount.toFixed(),
    triggerPrice: triggerPrice.toFixed(),
    limitPrice: limitPrice?.toFixed() ?? null,
    status: 'open',
    triggeredOrderId: limitOrder?.venueOrderId ?? null,
    createdAt: now,
    updatedAt: now,
    checkedUntil: now,
  };
  session.addStop(stop);
  session.recordStop(stop);
  return stop;
}

/**
 * A stop-limit's limit order, in the account's orders from the stop's placement on and holding its
 * reservation (refused with `InsufficientFundsError` when too little is free): the base a sell sells, a buy's
 * cost at its limit with the maker fee (as a resting spot buy reserves). Not matched until its stop triggers.
 */
async function reserveLimitOrder(
  desk: PaperDesk,
  session: AccountSession,
  checked: CheckedOrder,
): Promise<PaperOrderRow> {
  const { spec, request, amount, price } = checked;
  const asset = request.side === 'sell' ? spec.base : spec.quote;
  const reserve =
    request.side === 'sell' ? amount : roundUp(amount.times(price!).times(desk.makerRate.plus(1)));
  requireFree(await session.balance(asset), asset, reserve, 'balance');
  const order = desk.newOrderRow(checked, 'spot', desk.clock());
  await session.change(asset, { free: reserve.neg(), used: reserve });
  order.reservedAsset = asset;
  order.reserved = reserve.toFixed();
  session.addOrder(order);
  return order;
}

/** Cancels an open stop; a stop-limit's limit order goes with it, and what it reserved is free again. */
export async function cancelStop(
  desk: PaperDesk,
  session: AccountSession,
  stop: PaperStopRow,
  orders: PaperOrderRow[],
) {
  const order = await limitOrderOf(session, stop, orders);
  if (order) {
    await desk.closeOrder(session, order, 'cancelled');
    session.reported.add(order.venueOrderId);
  }
  stop.status = 'cancelled';
  stop.updatedAt = desk.clock();
  session.saveStop(stop);
  session.recordStop(stop);
  session.reported.add(stop.venueOrderId);
}

/**
 * The stop's trigger was crossed at `at`: it sends its order (`sendStopMarket`, `startStopLimit`), or expires
 * when there is nothing left for it to do.
 */
export async function triggerStop(
  desk: PaperDesk,
  session: AccountSession,
  stop: PaperStopRow,
  at: number,
  orders: PaperOrderRow[],
): Promise<void> {
  stop.updatedAt = at;
  stop.checkedUntil = at;
  const sent =
    stop.limitPrice === null
      ? await sendStopMarket(desk, session, stop, at)
      : await startStopLimit(desk, session, stop, at, orders);
  stop.status = sent ? 'triggered' : 'expired';
  stop.triggeredOrderId = sent ?? stop.triggeredOrderId;
  session.saveStop(stop);
  session.recordStop(stop);
}

/**
 * A futures stop sends a reduce-only market order of its amount, capped at the position then (Binance's
 * reduce-only), taking the book as it was then, booked exactly as any market order (fills, taker fees, the
 * position and its margin). Nothing left to reduce: no order (the stop expires), as Binance expires a
 * reduce-only order that would open or increase a position.
 */
async function sendStopMarket(
  desk: PaperDesk,
  session: AccountSession,
  stop: PaperStopRow,
  at: number,
): Promise<string | null> {
  const spec = desk.spec(stop.symbol);
  const position = await positionOf(desk, session.ledger, spec.symbol);
  const amount = Decimal.min(stop.amount, closable(dec(position.amount), stop.side));
  if (amount.isZero()) return null;
  const checked = triggeredOrder(spec, stop.venueOrderId, stop.side, amount, null);
  // Not checked for funds as a placed order is: a close is never refused, the margin it frees pays its fee.
  const order = await bookFutures(desk, session, checked, at, desk.take(checked, at), ZERO);
  return order.venueOrderId;
}

/** A spot stop-limit's limit order: among the pass's resting `orders`, else in the ledger. */
async function limitOrderOf(
  session: AccountSession,
  stop: PaperStopRow,
  orders: PaperOrderRow[],
): Promise<PaperOrderRow | null> {
  const id = stop.triggeredOrderId;
  if (stop.limitPrice === null || !id) return null;
  return orders.find((candidate) => candidate.venueOrderId === id) ?? (await session.ledger.orderById(id));
}

/**
 * A spot stop-limit's limit order, resting since the stop's placement with the coins reserved, starts working:
 * it takes what the book offers at `at` at its limit or better (marketable at once when the price is still on
 * the right side of it), as a taker; the rest rests and fills through matching from then on.
 */
async function startStopLimit(
  desk: PaperDesk,
  session: AccountSession,
  stop: PaperStopRow,
  at: number,
  orders: PaperOrderRow[],
): Promise<string | null> {
  const order = await limitOrderOf(session, stop, orders);
  if (!order || order.status !== 'open') return null;
  const spec = desk.spec(stop.symbol);
  const checked = triggeredOrder(spec, stop.venueOrderId, stop.side, dec(order.amount), dec(order.price!));
  for (const execution of desk.take(checked, at).executions) {
    await executeSpot(desk, session, spec, order, execution, 'taker', at);
  }
  order.checkedUntil = at;
  order.updatedAt = at;
  session.saveOrder(order);
  session.recordOrder(order);
  return order.venueOrderId;
}
