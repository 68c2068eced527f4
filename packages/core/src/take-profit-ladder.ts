import { DomainRuleError, type ErrorParams } from './errors';
import { orderMinimumViolation, type MarketLimits } from './market';
import type { OrderState } from './order-state';
import { Decimal, roundDownToStep, roundToTick, sum, toDecimal, type DecimalInput } from './money';
import type { PositionSide } from './signal-action';

/** `tp1`, `tp2`, … (DESIGN §6). */
export type TakeProfitRole = `tp${number}`;

export interface TakeProfitTarget {
  role: TakeProfitRole;
  /** Distance from the entry price, in percent (2 = 2%). */
  percent: DecimalInput;
  /** Share of the position closed at this level, in percent; normalized if the shares do not sum to 100. */
  sizePercent: DecimalInput;
}

export interface TakeProfitLevel {
  role: TakeProfitRole;
  /** Display name used in messages: `TP1`. */
  name: string;
  price: Decimal;
  quantity: Decimal;
  /** Levels too small for the venue whose quantity this level took over. */
  mergedRoles: TakeProfitRole[];
}

export interface TakeProfitLadderInput {
  side: PositionSide;
  entryPrice: DecimalInput;
  /** The position size actually held (the entry's filled amount). */
  quantity: DecimalInput;
  takeProfits: readonly TakeProfitTarget[];
  market: MarketLimits;
}

/** Thrown for a take-profit or stop configuration that cannot produce valid prices. */
export class InvalidTakeProfitError extends DomainRuleError {
  constructor(message: string, params?: ErrorParams) {
    super('INVALID_TAKE_PROFITS', message, params);
  }
}

/**
 * A take-profit level's role: `tp1`, `tp2`, … — `tp` and the level's number from 1, without a leading zero
 * (docs/decisions.md). Not capped at `MAX_TAKE_PROFITS`: a re-plan numbers its new levels after the filled
 * ones (`tp11` and above). The one pattern: the contract's bodies and the server's engine use it too.
 */
export const TAKE_PROFIT_ROLE = /^tp([1-9]\d*)$/;

export function isTakeProfitRole(value: string): value is TakeProfitRole {
  return TAKE_PROFIT_ROLE.test(value);
}

/** `tp2` → `TP2`: the `{name}` in the spec's push messages. */
export function tpDisplayName(role: string): string {
  return role.toUpperCase();
}

/** Position of a role in the ladder (`tp10` after `tp9`, which string order gets wrong). */
function roleIndex(role: TakeProfitRole): number {
  return Number(TAKE_PROFIT_ROLE.exec(role)?.[1] ?? Number.NaN);
}

function byRole<T extends { role: TakeProfitRole }>(levels: readonly T[]): T[] {
  return [...levels].sort((a, b) => roleIndex(a.role) - roleIndex(b.role));
}

function positive(value: DecimalInput, what: string): Decimal {
  const decimal = toDecimal(value);
  if (decimal.lte(0)) throw new InvalidTakeProfitError(`${what} must be greater than zero`);
  return decimal;
}

/**
 * Rounding rule for every derived price (TP and stop): round TOWARD the entry price. A take-profit then
 * never asks for more than configured (it fills whenever the market reaches the configured percent),
 * and a stop never risks more than configured. If rounding would land on or past the entry, the price
 * moves to the nearest tick on the correct side of it, so a TP is always a profit and a stop always
 * below (long) / above (short) the entry.
 */
function priceFromEntry(
  entryPrice: DecimalInput,
  percentInput: DecimalInput,
  priceTick: DecimalInput,
  direction: 'above' | 'below',
  what: string,
): Decimal {
  const entry = positive(entryPrice, 'Entry price');
  const percent = positive(percentInput, `${what} percent`);
  const tick = positive(priceTick, 'Price tick');
  const offset = percent.div(100);
  if (direction === 'above') {
    const price = roundToTick(entry.times(offset.plus(1)), tick, 'down');
    // else: the smallest tick strictly above the entry
    return price.gt(entry) ? price : roundToTick(entry, tick, 'down').plus(tick);
  }
  const price = roundToTick(entry.times(new Decimal(1).minus(offset)), tick, 'up');
  // else: the largest tick strictly below the entry
  const result = price.lt(entry) ? price : roundToTick(entry, tick, 'up').minus(tick);
  if (result.lte(0))
    throw new InvalidTakeProfitError(`A ${what.toLowerCase()} of ${percent.toFixed()}% is below zero`);
  return result;
}

/** Take-profit limit price: above the entry for a long, below for a short (see `priceFromEntry`). */
export function takeProfitPrice(input: {
  side: PositionSide;
  entryPrice: DecimalInput;
  percent: DecimalInput;
  priceTick: DecimalInput;
}): Decimal {
  const direction = input.side === 'long' ? 'above' : 'below';
  return priceFromEntry(input.entryPrice, input.percent, input.priceTick, direction, 'Take-profit');
}

/** Stop-loss trigger price: below the entry for a long, above for a short (see `priceFromEntry`). */
export function stopLossPrice(input: {
  side: PositionSide;
  entryPrice: DecimalInput;
  stopLossPercent: DecimalInput;
  priceTick: DecimalInput;
}): Decimal {
  const direction = input.side === 'long' ? 'below' : 'above';
  return priceFromEntry(input.entryPrice, input.stopLossPercent, input.priceTick, direction, 'Stop-loss');
}

/**
 * Stop price after TP1 fills (DESIGN §6): the exit price at which the trade loses nothing, including the
 * taker fee paid on entry and on exit (`feePercent` per side, 0.1 = 0.1%). Rounded AWAY from the entry
 * (long up, short down) so hitting it never books a loss.
 */
export function breakEvenStop(input: {
  side: PositionSide;
  entryPrice: DecimalInput;
  priceTick: DecimalInput;
  feePercent?: DecimalInput;
}): Decimal {
  const entry = positive(input.entryPrice, 'Entry price');
  const tick = positive(input.priceTick, 'Price tick');
  const fee = toDecimal(input.feePercent ?? 0).div(100);
  if (fee.lt(0) || fee.gte(1))
    throw new InvalidTakeProfitError('Fee percent must be between 0 and 100', { variant: 'fee' });
  const one = new Decimal(1);
  // Long: (p − e)·q = e·q·f + p·q·f  ⇒  p = e(1+f)/(1−f). Short mirrors it.
  return input.side === 'long'
    ? roundToTick(entry.times(one.plus(fee)).div(one.minus(fee)), tick, 'up')
    : roundToTick(entry.times(one.minus(fee)).div(one.plus(fee)), tick, 'down');
}

/**
 * The limit of a stop-limit resting on a spot venue (issue 18): once the trigger is crossed the venue works a
 * limit `offsetPercent` past it — below for a sell (a long's stop), above for a buy — so a fast move still
 * fills. Rounded away from the trigger to the tick (a sell down, a buy up), never to zero or below.
 */
export function stopLimitPrice(input: {
  /** The side of the order the stop sends: sell for a long. */
  side: 'buy' | 'sell';
  triggerPrice: DecimalInput;
  offsetPercent: DecimalInput;
  priceTick: DecimalInput;
}): Decimal {
  const trigger = positive(input.triggerPrice, 'Stop trigger price');
  const offset = toDecimal(input.offsetPercent).div(100);
  if (offset.lt(0) || offset.gte(1))
    throw new RangeError('Stop-limit offset must be at least 0 and below 100%');
  const limit =
    input.side === 'sell'
      ? roundToTick(trigger.times(toDecimal(1).minus(offset)), input.priceTick, 'down')
      : roundToTick(trigger.times(toDecimal(1).plus(offset)), input.priceTick, 'up');
  if (limit.lte(0)) throw new RangeError(`Stop-limit price must be above 0 (stop ${trigger.toFixed()})`);
  return limit;
}

/**
 * Splits a position into reduce-only take-profit orders.
 * - Levels are ordered by role (tp1 first) and priced with `takeProfitPrice`.
 * - `sizePercent` is normalized to the total; a level with size 0 is skipped.
 * - Every quantity but the last is rounded down to the amount step; the last level takes the remainder,
 *   so the quantities sum exactly to `quantity`.
 * - A level below the venue's minimum amount or notional is merged into the previous level (same price
 *   as that level, recorded in its `mergedRoles`); if the first levels are too small they are carried
 *   into the next one instead. If even the whole position is too small, the ladder is empty.
 */
export function buildTakeProfitLadder(input: TakeProfitLadderInput): TakeProfitLevel[] {
  const entry = positive(input.entryPrice, 'Entry price');
  const quantity = positive(input.quantity, 'Position quantity');
  const step = positive(input.market.amountStep, 'Amount step');

  const seen = new Set<string>();
  for (const target of input.takeProfits) {
    if (!isTakeProfitRole(target.role)) {
      throw new InvalidTakeProfitError(`Unknown take-profit role ${target.role}`, {
        variant: 'unknownRole',
        role: target.role,
      });
    }
    if (seen.has(target.role)) {
      const name = tpDisplayName(target.role);
      throw new InvalidTakeProfitError(`${name} is configured twice`, { variant: 'twice', name });
    }
    seen.add(target.role);
    if (toDecimal(target.sizePercent).lt(0)) {
      const name = tpDisplayName(target.role);
      throw new InvalidTakeProfitError(`${name} size must not be negative`, {
        variant: 'negativeSize',
        name,
      });
    }
  }
  const targets = byRole(input.takeProfits).filter((target) => !toDecimal(target.sizePercent).isZero());
  if (targets.length === 0) {
    if (input.takeProfits.length > 0) {
      throw new InvalidTakeProfitError('Take-profit sizes must not all be zero', { variant: 'allZero' });
    }
    return [];
  }
  const totalSize = sum(targets.map((target) => target.sizePercent));

  let allocated = new Decimal(0);
  const sized = targets.map((target, index) => {
    const isLast = index === targets.length - 1;
    const share = isLast
      ? quantity.minus(allocated)
      : roundDownToStep(quantity.times(toDecimal(target.sizePercent)).div(totalSize), step);
    allocated = allocated.plus(share);
    const price = takeProfitPrice({
      side: input.side,
      entryPrice: entry,
      percent: target.percent,
      priceTick: input.market.priceTick,
    });
    return { role: target.role, price, quantity: share };
  });

  const levels: TakeProfitLevel[] = [];
  let carried = { quantity: new Decimal(0), roles: [] as TakeProfitRole[] };
  for (const level of sized) {
    const previous = levels.at(-1);
    if (previous) {
      if (orderMinimumViolation(level.quantity, level.price, input.market)) {
        previous.quantity = previous.quantity.plus(level.quantity);
        previous.mergedRoles.push(level.role);
      } else {
        levels.push({ ...level, name: tpDisplayName(level.role), mergedRoles: [] });
      }
      continue;
    }
    const withCarried = level.quantity.plus(carried.quantity);
    if (orderMinimumViolation(withCarried, level.price, input.market)) {
      carried = { quantity: withCarried, roles: [...carried.roles, level.role] };
    } else {
      levels.push({
        ...level,
        quantity: withCarried,
        name: tpDisplayName(level.role),
        mergedRoles: carried.roles,
      });
    }
  }
  return levels;
}

/** A take-profit level as the push rules see it. */
export type TakeProfitStatus = 'waiting' | 'placed' | 'partially_filled' | 'filled' | 'cancelled';

/** The ladder status of a TP from its order's state (no order yet: waiting). */
export function takeProfitStatusFromOrder(state: OrderState | undefined): TakeProfitStatus {
  switch (state) {
    case undefined:
    case 'new':
      return 'waiting';
    case 'submitted':
    case 'open':
    case 'unknown':
      return 'placed';
    case 'partially_filled':
      return 'partially_filled';
    case 'filled':
      return 'filled';
    case 'cancelled':
    case 'rejected':
    case 'expired':
      return 'cancelled';
  }
}

function isSettled(status: TakeProfitStatus): boolean {
  return status === 'filled' || status === 'cancelled';
}

export type PushTakeProfitDecision<T> =
  | { ok: true; level: T }
  /** `params`: what TAKE_PROFIT_NOT_PUSHABLE says it with (absent: "{name} is not available to push"). */
  | { ok: false; message: string; params?: ErrorParams };

/**
 * Push-to-take-profit rules (DESIGN §6, spec §8 messages). A filled, cancelled or missing TP is
 * "not available to push". Otherwise only the lowest TP still unsettled (not filled, not cancelled) may
 * be pushed; the message names that lowest TP, since it is the one that has to fill first.
 */
export function pushableTakeProfit<T extends { role: TakeProfitRole; status: TakeProfitStatus }>(
  levels: readonly T[],
  role: string,
): PushTakeProfitDecision<T> {
  const target = levels.find((level) => level.role === role);
  if (!target || isSettled(target.status)) {
    const name = tpDisplayName(role);
    return { ok: false, message: `${name} is not available to push`, params: { name } };
  }
  const lowest = byRole(levels).find((level) => !isSettled(level.status));
  if (lowest && lowest.role !== target.role) {
    const previousName = tpDisplayName(lowest.role);
    return {
      ok: false,
      message: `Waiting for ${previousName} to be filled first`,
      params: { variant: 'waiting', previousName },
    };
  }
  return { ok: true, level: target };
}
