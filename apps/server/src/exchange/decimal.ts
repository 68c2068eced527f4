import { Decimal as DecimalJs } from 'decimal.js';

/**
 * The exchange layer's decimal: a private clone (40 significant digits, plain notation) so nobody's global
 * `Decimal.set()` changes our maths. Same settings as packages/core's money type, which can replace it.
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = DecimalJs;

export const ZERO = new Decimal(0);

const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Parses a decimal string (or an integer count); throws on anything that is not a finite decimal. */
export function dec(value: string | number | Decimal): Decimal {
  if (typeof value === 'string' && !DECIMAL_TEXT.test(value.trim())) {
    throw new TypeError(`Not a decimal: ${value}`);
  }
  const parsed = new Decimal(typeof value === 'string' ? value.trim() : value);
  if (!parsed.isFinite()) throw new TypeError(`Not a finite decimal: ${String(value)}`);
  return parsed;
}

/**
 * A value from ccxt (a JS number parsed from the venue's string, or a string) as a plain decimal string.
 * A number is read through its shortest round-trip form, so 0.1 stays '0.1'; no arithmetic happens here.
 */
export function decimalString(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return new Decimal(value).toFixed();
  }
  if (typeof value === 'string') {
    if (!DECIMAL_TEXT.test(value.trim())) return null;
    return new Decimal(value.trim()).toFixed();
  }
  if (value instanceof DecimalJs) return value.toFixed();
  return null;
}

export function decimalStringOrZero(value: unknown): string {
  return decimalString(value) ?? '0';
}

/** Rounds down to a multiple of `step` (amounts never round up into money we do not have). */
export function floorToStep(value: Decimal, step: Decimal): Decimal {
  if (step.lte(0)) return value;
  return value.div(step).floor().times(step);
}

export function ceilToStep(value: Decimal, step: Decimal): Decimal {
  if (step.lte(0)) return value;
  return value.div(step).ceil().times(step);
}

export function roundToStep(value: Decimal, step: Decimal): Decimal {
  if (step.lte(0)) return value;
  return value.div(step).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).times(step);
}

export function isMultipleOf(value: Decimal, step: Decimal): boolean {
  if (step.lte(0)) return true;
  return value.mod(step).isZero();
}
