import { type Decimal, dec, isMultipleOf } from '../decimal';
import { InvalidOrderError } from '../errors';
import type { CreateOrderRequest, StopOrderRequest } from '../gateway';
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
  if (price !== null && (price.lte(0) || !isMultipleOf(price, dec(spec.priceTick)))) {
    throw new InvalidOrderError(`Price ${request.price} must be a positive multiple of ${spec.priceTick}`);
  }
  const reference = price ?? marketPrice();
  if (!request.reduceOnly && amount.times(reference).lt(spec.minNotional)) {
    throw new InvalidOrderError(`Order value must be at least ${spec.minNotional} ${spec.quote}`);
  }
  return { amount, price };
}

/** The stop's amount and trigger price, checked. */
export function validateStop(
  spec: PaperMarketSpec,
  request: StopOrderRequest,
): { amount: Decimal; triggerPrice: Decimal } {
  checkClientOrderId(request.clientOrderId);
  if (request.side !== 'buy' && request.side !== 'sell') {
    throw new InvalidOrderError(`Unknown side ${String(request.side)}`);
  }
  let amount: Decimal;
  let triggerPrice: Decimal;
  try {
    amount = dec(request.amount);
    triggerPrice = dec(request.triggerPrice);
  } catch {
    throw new InvalidOrderError('Amount and trigger price must be decimal numbers');
  }
  checkAmount(spec, amount, request.amount);
  if (triggerPrice.lte(0) || !isMultipleOf(triggerPrice, dec(spec.priceTick))) {
    throw new InvalidOrderError(
      `Trigger price ${request.triggerPrice} must be a positive multiple of ${spec.priceTick}`,
    );
  }
  return { amount, triggerPrice };
}
