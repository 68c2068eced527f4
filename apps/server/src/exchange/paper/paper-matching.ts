import { Decimal, ZERO } from '../decimal';
import type { OrderSide } from '../gateway';

/** Pure matching arithmetic of the paper venue: book walks, fees, position maths. */

export interface Execution {
  price: Decimal;
  amount: Decimal;
}

/** Venues round fees to 8 decimals; so do we, per fill. */
export const FEE_DECIMALS = 8;
/**
 * Scale of derived amounts (margins, reserves, entry prices): divisions are cut here so every stored value
 * fits the ledger's numeric(38,18) exactly, whatever the store.
 */
export const DERIVED_DECIMALS = 12;

export function roundUp(value: Decimal): Decimal {
  return value.toDecimalPlaces(DERIVED_DECIMALS, Decimal.ROUND_UP);
}

export function roundDown(value: Decimal): Decimal {
  return value.toDecimalPlaces(DERIVED_DECIMALS, Decimal.ROUND_DOWN);
}

export function feeFor(cost: Decimal, rate: Decimal): Decimal {
  return cost.times(rate).toDecimalPlaces(FEE_DECIMALS, Decimal.ROUND_HALF_UP);
}

/**
 * Takes up to `amount` from `levels` (the opposite side of the book, best first), one execution per level,
 * never beyond `limit` when given. Returns less than `amount` when the book runs out.
 */
export function walkBook(
  levels: ReadonlyArray<readonly [Decimal, Decimal]>,
  side: OrderSide,
  amount: Decimal,
  limit?: Decimal,
): Execution[] {
  const executions: Execution[] = [];
  let remaining = amount;
  for (const [price, size] of levels) {
    if (remaining.lte(0)) break;
    if (limit !== undefined && (side === 'buy' ? price.gt(limit) : price.lt(limit))) break;
    const take = Decimal.min(remaining, size);
    if (take.lte(0)) continue;
    executions.push({ price, amount: take });
    remaining = remaining.minus(take);
  }
  return executions;
}

export function totalAmount(executions: readonly Execution[]): Decimal {
  return executions.reduce((total, execution) => total.plus(execution.amount), ZERO);
}

export function totalCost(executions: readonly Execution[]): Decimal {
  return executions.reduce((total, execution) => total.plus(execution.price.times(execution.amount)), ZERO);
}

export function totalFees(executions: readonly Execution[], rate: Decimal): Decimal {
  return executions.reduce(
    (total, execution) => total.plus(feeFor(execution.price.times(execution.amount), rate)),
    ZERO,
  );
}

export interface PositionState {
  /** Signed: > 0 long, < 0 short. */
  amount: Decimal;
  entryPrice: Decimal;
  margin: Decimal;
  leverage: number;
}

export interface PositionChange {
  position: PositionState;
  /** Margin newly held (≥ 0) and released (≥ 0) by this fill. */
  marginAdded: Decimal;
  marginReleased: Decimal;
  realizedPnl: Decimal;
}

/**
 * Applies a fill to a one-way futures position: adds to it (weighted entry, margin = notional / leverage),
 * or reduces it (realising PnL, releasing margin pro rata), or reverses it.
 */
export function applyFill(
  position: PositionState,
  side: OrderSide,
  price: Decimal,
  amount: Decimal,
): PositionChange {
  const signed = side === 'buy' ? amount : amount.neg();
  const current = position.amount;
  let marginAdded = ZERO;
  let marginReleased = ZERO;
  let realizedPnl = ZERO;
  let next: PositionState = { ...position };

  if (current.isZero() || current.isNeg() === signed.isNeg()) {
    const size = current.abs().plus(amount);
    marginAdded = roundUp(price.times(amount).div(position.leverage));
    next = {
      ...position,
      amount: current.plus(signed),
      entryPrice: position.entryPrice
        .times(current.abs())
        .plus(price.times(amount))
        .div(size)
        .toDecimalPlaces(DERIVED_DECIMALS, Decimal.ROUND_HALF_UP),
      margin: position.margin.plus(marginAdded),
    };
    return { position: next, marginAdded, marginReleased, realizedPnl };
  }

  const closing = Decimal.min(amount, current.abs());
  const direction = current.isNeg() ? -1 : 1;
  realizedPnl = price.minus(position.entryPrice).times(closing).times(direction);
  marginReleased = closing.eq(current.abs())
    ? position.margin
    : position.margin.times(closing).div(current.abs());
  const left = current.abs().minus(closing);
  next = {
    ...position,
    amount: left.isZero() ? ZERO : current.isNeg() ? left.neg() : left,
    entryPrice: left.isZero() ? ZERO : position.entryPrice,
    margin: position.margin.minus(marginReleased),
  };
  const reversing = amount.minus(closing);
  if (reversing.gt(0)) {
    marginAdded = roundUp(price.times(reversing).div(position.leverage));
    next = {
      ...next,
      amount: side === 'buy' ? reversing : reversing.neg(),
      entryPrice: price,
      margin: next.margin.plus(marginAdded),
    };
  }
  return { position: next, marginAdded, marginReleased, realizedPnl };
}
