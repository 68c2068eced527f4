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
