import { z } from 'zod';

/**
 * Decimals a person types are stored in `numeric(38, 18)` columns: at most 20 digits before the
 * point. A larger value, or a number JavaScript writes with an exponent (`1e+308`), would reach the
 * database as something it refuses — so inputs are written out plainly and checked here, at the edge.
 */
export const MAX_INTEGER_DIGITS = 20;
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** `n` (finite) written without an exponent: 1e-7 → "0.0000001". A number too large for that stays as JavaScript writes it. */
export function numberToDecimal(n: number): string {
  const text = String(n);
  if (!/e/i.test(text) || Math.abs(n) >= 1e21) return text;
  const fixed = n.toFixed(18);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** A plain decimal string a ledger column can hold. */
export function fitsLedger(value: string): boolean {
  if (!PLAIN_DECIMAL.test(value)) return false;
  const integer = value
    .replace(/^-/, '')
    .replace(/\..*$/, '')
    .replace(/^0+(?=\d)/, '');
  return integer.length <= MAX_INTEGER_DIGITS;
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
