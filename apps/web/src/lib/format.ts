/**
 * Number formatting per spec §9: currency and decimal with 2 to 8 decimals, percent with 2.
 * Values may be numbers or decimal strings (the server sends money as strings, DESIGN §3):
 * strings are handed to Intl as they are, so no precision is lost on the way.
 */
import { formatInstant } from './format-time';

export type Numeric = number | string;

export const DEFAULT_LOCALE = 'en-US';

const cache = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let cached = cache.get(key);
  if (!cached) {
    cached = new Intl.NumberFormat(locale, options);
    cache.set(key, cached);
  }
  return cached;
}

function toIntlValue(value: Numeric): number | Intl.StringNumericLiteral {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return trimmed === '' || Number.isNaN(Number(trimmed))
    ? Number.NaN
    : (trimmed as Intl.StringNumericLiteral);
}

/** Currency for a language when the user picked none: USD for English, EUR for French (spec §1). */
export function defaultCurrencyFor(locale: string): string {
  return locale.toLowerCase().startsWith('fr') ? 'EUR' : 'USD';
}

/** A whole count as the locale writes it ("1,234", "1 234"), from the shared formatter cache. */
export function formatCount(value: number, locale: string = DEFAULT_LOCALE): string {
  return formatter(locale, { maximumFractionDigits: 0 }).format(value);
}

/** A dash for values that are missing or not numbers, so a table never shows "NaN". */
export const EMPTY_VALUE = '—';

function isMissing(value: Numeric | null | undefined): value is null | undefined {
  return value === null || value === undefined || Number.isNaN(Number(value));
}

export interface CurrencyOptions {
  locale?: string;
  currency?: string;
  signDisplay?: Intl.NumberFormatOptions['signDisplay'];
}

export function formatCurrency(value: Numeric | null | undefined, options: CurrencyOptions = {}): string {
  if (isMissing(value)) return EMPTY_VALUE;
  const locale = options.locale ?? DEFAULT_LOCALE;
  return formatter(locale, {
    style: 'currency',
    currency: options.currency ?? defaultCurrencyFor(locale),
    minimumFractionDigits: 2,
    maximumFractionDigits: 8,
    signDisplay: options.signDisplay ?? 'auto',
  }).format(toIntlValue(value));
}

export function formatDecimal(
  value: Numeric | null | undefined,
  options: { locale?: string; signDisplay?: Intl.NumberFormatOptions['signDisplay'] } = {},
): string {
  if (isMissing(value)) return EMPTY_VALUE;
  return formatter(options.locale ?? DEFAULT_LOCALE, {
    style: 'decimal',
    minimumFractionDigits: 2,
    maximumFractionDigits: 8,
    signDisplay: options.signDisplay ?? 'auto',
  }).format(toIntlValue(value));
}

/**
 * A percentage given in percent units: 12.5 → "12.50%" (en-US), "12,50 %" (fr-FR).
 * The `percent` unit avoids Intl's ×100 so decimal strings stay exact.
 */
export function formatPercent(
  value: Numeric | null | undefined,
  options: { locale?: string; signDisplay?: Intl.NumberFormatOptions['signDisplay'] } = {},
): string {
  if (isMissing(value)) return EMPTY_VALUE;
  return formatter(options.locale ?? DEFAULT_LOCALE, {
    style: 'unit',
    unit: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: options.signDisplay ?? 'auto',
  }).format(toIntlValue(value));
}

/** PnL always shows its sign, zero included (STYLE "How it looks"). */
export function formatPnl(
  value: Numeric | null | undefined,
  options: Omit<CurrencyOptions, 'signDisplay'> = {},
): string {
  return formatCurrency(value, { ...options, signDisplay: 'always' });
}

export function formatPnlPercent(
  value: Numeric | null | undefined,
  options: { locale?: string } = {},
): string {
  return formatPercent(value, { ...options, signDisplay: 'always' });
}

/** -1, 0 or 1; 0 for missing values. */
export function signOf(value: Numeric | null | undefined): -1 | 0 | 1 {
  if (isMissing(value)) return 0;
  const number = Number(value);
  return number > 0 ? 1 : number < 0 ? -1 : 0;
}

export function formatDateTime(
  value: string | number | Date | null | undefined,
  options: { locale?: string; timeZone?: string } = {},
): string {
  return formatInstant(value, { locale: options.locale ?? DEFAULT_LOCALE, timeZone: options.timeZone });
}
