import { Decimal as DecimalJs } from 'decimal.js';
import { DomainRuleError } from './errors';

/**
 * Kairos' decimal type. A private clone so no other library's global `Decimal.set()` can change our
 * precision; 40 significant digits covers any price × quantity a venue can report, and the wide
 * exponent range keeps `toString()` in plain notation (no `1e-8` in logs or JSON).
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = DecimalJs;

/** Anything core accepts as an amount: `numeric` columns arrive as strings, venues send numbers. */
export type DecimalInput = string | number | DecimalJs;

/** Thrown for NaN, Infinity, empty strings and other non-amounts. */
export class InvalidDecimalError extends DomainRuleError {
  constructor(readonly input: unknown) {
    super('INVALID_DECIMAL', `Not a valid decimal amount: ${String(input)}`, { input: String(input) });
  }
}

// Plain decimal or scientific notation only: decimal.js would also read '0x10' or '0b1' as numbers.
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Parses an amount into our Decimal, refusing anything that is not a finite decimal number. */
export function toDecimal(value: DecimalInput): Decimal {
  if (typeof value === 'string' && !DECIMAL_TEXT.test(value.trim())) throw new InvalidDecimalError(value);
  let parsed: Decimal;
  try {
    parsed = new Decimal(typeof value === 'string' ? value.trim() : value);
  } catch {
    throw new InvalidDecimalError(value);
  }
  if (!parsed.isFinite()) throw new InvalidDecimalError(value);
  return parsed;
}

/** Sum of amounts; zero for an empty list. */
export function sum(values: readonly DecimalInput[]): Decimal {
  return values.reduce<Decimal>((total, value) => total.plus(toDecimal(value)), new Decimal(0));
}

/** `percent`% of `value` (percent given as 0–100, the way strategies and bots store it). */
export function percentOf(value: DecimalInput, percent: DecimalInput): Decimal {
  return toDecimal(value).times(toDecimal(percent)).div(100);
}

export type RoundingDirection = 'down' | 'up' | 'nearest';

const ROUNDING: Record<RoundingDirection, DecimalJs.Rounding> = {
  // Toward −∞ / +∞, not toward zero, so negative values round consistently with positive ones.
  down: DecimalJs.ROUND_FLOOR,
  up: DecimalJs.ROUND_CEIL,
  nearest: DecimalJs.ROUND_HALF_UP,
};

/** Rounds to a multiple of `step` (a lot size or tick size); `step` must be positive. */
export function roundToStep(value: DecimalInput, step: DecimalInput, direction: RoundingDirection): Decimal {
  const stepDecimal = toDecimal(step);
  if (stepDecimal.lte(0)) throw new InvalidDecimalError(step);
  return toDecimal(value).div(stepDecimal).toDecimalPlaces(0, ROUNDING[direction]).times(stepDecimal).plus(0); // normalizes −0 to 0
}

/** Quantity rounded down to the venue's amount step: never order more than we can afford. */
export function roundDownToStep(quantity: DecimalInput, step: DecimalInput): Decimal {
  return roundToStep(quantity, step, 'down');
}

/** Price rounded to the venue's tick (nearest by default). */
export function roundToTick(
  price: DecimalInput,
  tick: DecimalInput,
  direction: RoundingDirection = 'nearest',
): Decimal {
  return roundToStep(price, tick, direction);
}

/**
 * Fixed-point string for a PostgreSQL `numeric` column or a venue request: plain notation, never
 * exponent form, half-up to `scale` decimals when given (all digits otherwise), and no `-0`.
 */
export function toNumericString(value: DecimalInput, scale?: number): string {
  const decimal = toDecimal(value);
  if (scale !== undefined && (!Number.isInteger(scale) || scale < 0)) throw new InvalidDecimalError(scale);
  const text = scale === undefined ? decimal.toFixed() : decimal.toFixed(scale, DecimalJs.ROUND_HALF_UP);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}
