import type { ErrorParams } from './errors';
import { orderMinimumViolation, type MarketLimits, type MinimumViolation } from './market';
import { Decimal, percentOf, roundDownToStep, toDecimal, type DecimalInput } from './money';

/** How much of the account one entry commits (DESIGN §5). */
export type SizingRule =
  { kind: 'fixedAmount'; amount: DecimalInput } | { kind: 'portfolioPercent'; percent: DecimalInput };

/**
 * A bot stores both `fixedAmount` and `portfolioPercent`; a positive fixed amount wins, because it is
 * the more specific choice the user made in the wizard.
 */
export function sizingRuleFromBot(bot: {
  fixedAmount?: DecimalInput | null;
  portfolioPercent?: DecimalInput | null;
}): SizingRule {
  if (bot.fixedAmount != null && toDecimal(bot.fixedAmount).gt(0)) {
    return { kind: 'fixedAmount', amount: bot.fixedAmount };
  }
  return { kind: 'portfolioPercent', percent: bot.portfolioPercent ?? 0 };
}

/** The quote amount a bot commits per entry; also the base for its monthly goal. */
export function botAllocation(rule: SizingRule, stableBalance: DecimalInput): Decimal {
  return rule.kind === 'fixedAmount' ? toDecimal(rule.amount) : percentOf(stableBalance, rule.percent);
}

export interface OrderSizingInput {
  rule: SizingRule;
  /** The account's free stable-coin balance (USDT…). */
  stableBalance: DecimalInput;
  /** 100 = no leverage, 300 = 3×; below 100 trades a fraction of the allocation. */
  leveragePercent: DecimalInput;
  /** Expected fill price (last price or the alert's price). */
  price: DecimalInput;
  market: Pick<MarketLimits, 'amountStep' | 'minAmount' | 'minNotional'>;
}

export type OrderSizingRefusal =
  | { ok: false; reason: 'invalid_input'; message: string; params: ErrorParams }
  | { ok: false; reason: 'insufficient_balance'; message: string; params: ErrorParams }
  | ({ ok: false } & MinimumViolation);

export type OrderSizing =
  | {
      ok: true;
      /** Base quantity to order, a multiple of the amount step. */
      quantity: Decimal;
      /** quantity × price. */
      notional: Decimal;
      /** What the order ties up from the balance: notional ÷ leverage (never more than notional). */
      margin: Decimal;
      allocation: Decimal;
    }
  | OrderSizingRefusal;

function invalidInput(message: string, variant: string): OrderSizingRefusal {
  return { ok: false, reason: 'invalid_input', message, params: { variant } };
}

/**
 * Entry size (DESIGN §5): allocation (fixed amount or % of balance) × leveragePercent/100 gives the
 * notional; quantity = notional ÷ price rounded down to the amount step. Refused — never thrown, so
 * one bot's refusal is recorded on its trade without stopping the others — when inputs are invalid, the
 * balance cannot cover the margin, or the size is under the venue's minimums.
 */
export function sizeOrder(input: OrderSizingInput): OrderSizing {
  const price = toDecimal(input.price);
  const leverage = toDecimal(input.leveragePercent).div(100);
  const balance = toDecimal(input.stableBalance);
  if (price.lte(0)) return invalidInput('Price must be greater than zero', 'price');
  if (leverage.lte(0)) return invalidInput('Leverage must be greater than zero', 'leverage');
  if (balance.lte(0)) {
    return {
      ok: false,
      reason: 'insufficient_balance',
      message: 'No stable balance available',
      params: { variant: 'noBalance' },
    };
  }

  const allocation = botAllocation(input.rule, balance);
  if (allocation.lte(0)) return invalidInput('The bot order size is zero', 'zeroSize');

  const quantity = roundDownToStep(allocation.times(leverage).div(price), input.market.amountStep);
  const notional = quantity.times(price);
  const margin = notional.div(Decimal.max(1, leverage));
  if (margin.gt(balance)) {
    return {
      ok: false,
      reason: 'insufficient_balance',
      message: `Insufficient balance: the order needs ${margin.toFixed()} and ${balance.toFixed()} is available`,
      params: { variant: 'insufficientBalance', needed: margin.toFixed(), available: balance.toFixed() },
    };
  }
  const violation = orderMinimumViolation(quantity, price, input.market);
  if (violation) return { ok: false, ...violation };
  return { ok: true, quantity, notional, margin, allocation };
}

/** How far (percent) a signal's price may be from the venue's and still size an entry, unless the strategy says. */
export const DEFAULT_PRICE_TOLERANCE_PERCENT = '2';

/** How far the signal's price is from the venue's, in percent of the venue's (signed); null without both. */
export function signalPriceDeviation(
  signalPrice: DecimalInput | null | undefined,
  venuePrice: DecimalInput | null | undefined,
): Decimal | null {
  if (!signalPrice || !venuePrice || toDecimal(venuePrice).lte(0)) return null;
  return toDecimal(signalPrice).minus(venuePrice).div(venuePrice).times(100);
}

/**
 * The price an entry is sized at: the signal's where it agrees with the venue's (within the strategy's
 * tolerance, in percent), else the venue's — a signal price 10× too low would size 10× the allocation, and the
 * order fills at the venue's price anyway. Null when the venue gives none.
 */
export function sizingPrice(
  signalPrice: DecimalInput | null | undefined,
  venuePrice: DecimalInput | null,
  tolerancePercent: DecimalInput = DEFAULT_PRICE_TOLERANCE_PERCENT,
) {
  if (venuePrice === null) return null;
  const deviation = signalPriceDeviation(signalPrice, venuePrice);
  if (deviation === null) return venuePrice;
  return deviation.abs().gt(toDecimal(tolerancePercent)) ? venuePrice : signalPrice!;
}
