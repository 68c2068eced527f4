import { type Decimal, dec, isMultipleOf } from '../decimal';
import { InvalidOrderError } from '../errors';
import type { AccountMarketType, CreateOrderRequest, StopOrderRequest } from '../gateway';
import type { PaperMarketSpec } from './paper-markets';

// What the venue refuses before it looks at an account: orders and stops that are malformed or off its
// market's steps.

function checkClientOrderId(clientOrderId: string): void {
  if (!clientOrderId || clientOrderId.length > 36) {
    throw new InvalidOrderError('clientOrderId is required (at most 36 characters)');
  }
}

function checkAmount(spec: PaperMarketSpec, amount: Decimal, asked: string): void {
  if (amount.lte(0) || !isMultipleOf(amount, dec(spec.amountStep)) || amount.lt(spec.minAmount)) {
    throw new InvalidOrderError(
      `Amount ${asked} must be a multiple of ${spec.amountStep} and at least ${spec.minAmount}`,
    );
  }
}

/** The order's amount and limit price, checked; `marketPrice` values a market order. */
export function validateOrder(
  spec: PaperMarketSpec,
  request: CreateOrderRequest,
  marketPrice: () => Decimal,
): { amount: Decimal; price: Decimal | null } {
  checkClientOrderId(request.clientOrderId);
  let amount: Decimal;
  let price: Decimal | null = null;
  try {
    amount = dec(request.amount);
    if (request.type === 'limit') price = dec(request.price ?? '');
  } catch {
    throw new InvalidOrderError('Amount and price must be decimal numbers');
  }
  checkAmount(spec, amount, request.amount);
  if (price !== null) checkPrice(spec, price, 'Price', request.price!);
  const reference = price ?? marketPrice();
  if (!request.reduceOnly && amount.times(reference).lt(spec.minNotional)) {
    throw new InvalidOrderError(`Order value must be at least ${spec.minNotional} ${spec.quote}`);
  }
  return { amount, price };
}

function checkPrice(spec: PaperMarketSpec, price: Decimal, what: string, asked: string): void {
  if (price.lte(0) || !isMultipleOf(price, dec(spec.priceTick))) {
    throw new InvalidOrderError(`${what} ${asked} must be a positive multiple of ${spec.priceTick}`);
  }
}

/**
 * The stop's amount, trigger price and limit price (a stop-limit's: spot stops need one, futures stops are
 * stop-markets), checked.
 */
export function validateStop(
  spec: PaperMarketSpec,
  marketType: AccountMarketType,
  request: StopOrderRequest,
): { amount: Decimal; triggerPrice: Decimal; limitPrice: Decimal | null } {
  checkClientOrderId(request.clientOrderId);
  if (request.side !== 'buy' && request.side !== 'sell') {
    throw new InvalidOrderError(`Unknown side ${String(request.side)}`);
  }
  if (marketType === 'spot' && request.limitPrice === undefined) {
    throw new InvalidOrderError('A spot stop is a stop-limit: it needs a limit price');
  }
  if (marketType === 'future' && request.limitPrice !== undefined) {
    throw new InvalidOrderError('Futures stops are stop-markets: no limit price');
  }
  let amount: Decimal;
  let triggerPrice: Decimal;
  let limitPrice: Decimal | null;
  try {
    amount = dec(request.amount);
    triggerPrice = dec(request.triggerPrice);
    limitPrice = request.limitPrice === undefined ? null : dec(request.limitPrice);
  } catch {
    throw new InvalidOrderError('Amount, trigger and limit price must be decimal numbers');
  }
  checkAmount(spec, amount, request.amount);
  checkPrice(spec, triggerPrice, 'Trigger price', request.triggerPrice);
  if (limitPrice !== null) {
    checkPrice(spec, limitPrice, 'Limit price', request.limitPrice!);
    if (amount.times(limitPrice).lt(spec.minNotional)) {
      throw new InvalidOrderError(`Order value must be at least ${spec.minNotional} ${spec.quote}`);
    }
  }
  return { amount, triggerPrice, limitPrice };
}
