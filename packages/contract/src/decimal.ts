import { z } from 'zod';

/**
 * Decimals a person types are stored in `numeric(38, 18)` columns: at most 20 digits before the point
 * and 18 after. Anything else (more digits, or a number JavaScript writes with an exponent, `1e+308`)
 * would reach the database as something it refuses or silently rounds — so inputs are written out
 * plainly and checked here, at the edge.
 */
export const MAX_INTEGER_DIGITS = 20;
export const MAX_FRACTION_DIGITS = 18;
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * `n` (finite) written without an exponent and with at most 18 decimals (rounded, as the ledger
 * would): 1e-7 → "0.0000001". A number too large for that stays as JavaScript writes it.
 */
export function numberToDecimal(n: number): string {
  const text = String(n);
  const decimals = text.split('.')[1]?.length ?? 0;
  if ((!/e/i.test(text) && decimals <= MAX_FRACTION_DIGITS) || Math.abs(n) >= 1e21) return text;
  const fixed = n.toFixed(MAX_FRACTION_DIGITS);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** A plain decimal string a ledger column holds exactly. */
export function fitsLedger(value: string): boolean {
  if (!PLAIN_DECIMAL.test(value)) return false;
  const [integer = '', fraction = ''] = value.replace(/^-/, '').split('.');
  return (
    integer.replace(/^0+(?=\d)/, '').length <= MAX_INTEGER_DIGITS && fraction.length <= MAX_FRACTION_DIGITS
  );
}

/**
 * A positive decimal typed by a person or sent by a client (number or string), kept as a plain
 * string; every way it can be wrong answers with `message`. `max`, when given, is inclusive.
 */
export const typedPositiveDecimal = (message: string, max?: number) =>
  z
    .union([z.number({ error: message }).finite(message), z.string({ error: message }).trim()], {
      error: message,
    })
    .transform((v) => (typeof v === 'number' ? numberToDecimal(v) : v))
    .refine((v) => fitsLedger(v) && Number(v) > 0 && (max === undefined || Number(v) <= max), message);

/** Whether `value` is a plain decimal string ("12", "-0.5"): no exponent, no comma, no blank. */
export function isPlainDecimal(value: string): boolean {
  return PLAIN_DECIMAL.test(value);
}

const fractionDigits = (value: string) => value.split('.')[1]?.length ?? 0;

/** A decimal string as a whole number of 10^-places (exact: a BigInt, never a float). */
function scaled(value: string, places: number): bigint {
  const negative = value.trim().startsWith('-');
  const [whole = '0', fraction = ''] = value.trim().replace(/^[-+]/, '').split('.');
  const digits = BigInt(`${whole || '0'}${fraction.padEnd(places, '0').slice(0, places)}`);
  return negative ? -digits : digits;
}

/** Back from a whole number of 10^-places to a decimal string, without trailing zeros. */
function unscaled(amount: bigint, places: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = places > 0 ? digits.slice(digits.length - places).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** `a + b + …` on plain decimal strings, exactly (money is never a float): "0.1" + "0.2" = "0.3". */
export function sumDecimals(values: readonly string[]): string {
  const places = Math.max(0, ...values.map(fractionDigits));
  return unscaled(
    values.reduce((total, value) => total + scaled(value, places), 0n),
    places,
  );
}

/** `a − b` on plain decimal strings, exactly: "0.025" − "0.01" = "0.015". */
export function subtractDecimals(a: string, b: string): string {
  const places = Math.max(fractionDigits(a), fractionDigits(b));
  return unscaled(scaled(a, places) - scaled(b, places), places);
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` (plain decimal strings, compared exactly). */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const places = Math.max(fractionDigits(a), fractionDigits(b));
  const difference = scaled(a, places) - scaled(b, places);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}
