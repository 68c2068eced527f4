import { useMemo } from 'react';
import { DEFAULT_LOCALE, EMPTY_VALUE, type Numeric } from './format';
import { useFormatters } from './use-formatters';

/**
 * The one money formatter (issue 21): an amount in a currency with that currency's usual decimals and its
 * unit, always — "−2.53 USDT", "0.00123456 BTC", "1 234,50 €" — and a quantity to its market's step. Kept
 * out of `format.ts` (the first load's) since only the lazy screens print money.
 */

/** Fiat currencies Intl writes with its own symbol. */
const FIAT = new Set(['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'AUD', 'CAD']);
/** Dollar-like coins: counted in cents like the dollar. */
const STABLE = new Set(['USDT', 'USDC', 'BUSD', 'FDUSD', 'TUSD', 'DAI', 'USDE', 'USDP', 'PYUSD']);
/** Coins quoted with fewer decimals than the 8 of a satoshi. */
const COIN_DECIMALS: Record<string, number> = { ETH: 6, BNB: 4, SOL: 4, XRP: 4, ADA: 4, DOGE: 4 };

/** How many decimals an amount of `currency` is usually written with: 2 for fiat and stable coins, BTC 8. */
export function usualDecimals(currency: string): number {
  const code = currency.toUpperCase();
  if (code === 'JPY') return 0;
  if (FIAT.has(code) || STABLE.has(code)) return 2;
  return COIN_DECIMALS[code] ?? 8;
}

/** The decimals of a market step ("0.0001" → 4, "1" → 0, "1e-5" → 5). */
export function stepDecimals(step: Numeric): number {
  const number = Number(step);
  if (!Number.isFinite(number) || number <= 0) return 8;
  const text = typeof step === 'string' && !/e/i.test(step) ? step.trim() : number.toFixed(12);
  const decimals = text.includes('.') ? text.replace(/0+$/, '').split('.')[1]!.length : 0;
  return Math.min(decimals, 12);
}

const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let found = cache.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale, options);
    cache.set(key, found);
  }
  return found;
}

function numeric(value: Numeric | null | undefined): Intl.StringNumericLiteral | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const trimmed = value.trim();
  return trimmed === '' || Number.isNaN(Number(trimmed)) ? null : (trimmed as Intl.StringNumericLiteral);
}

export interface MoneyOptions {
  locale?: string;
  /** 'always' for a PnL (zero included), else 'auto'. */
  signDisplay?: Intl.NumberFormatOptions['signDisplay'];
}

function digitsOf(amount: Intl.StringNumericLiteral | number, code: string): Intl.NumberFormatOptions {
  const decimals = usualDecimals(code);
  const tiny = Number(amount) !== 0 && Math.abs(Number(amount)) < 10 ** -decimals;
  return tiny
    ? { maximumSignificantDigits: 2 }
    : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
}

/** The figure in `code`'s usual decimals; with `symbol`, a fiat currency's own symbol ("$1,234.50"). */
function moneyText(value: Numeric | null | undefined, code: string, options: MoneyOptions, symbol: boolean) {
  const amount = numeric(value);
  if (amount === null) return EMPTY_VALUE;
  return numberFormat(options.locale ?? DEFAULT_LOCALE, {
    ...(symbol && FIAT.has(code) ? { style: 'currency', currency: code } : {}),
    signDisplay: options.signDisplay ?? 'auto',
    ...digitsOf(amount, code),
  }).format(amount);
}

/**
 * An amount of `currency` to its usual decimals, with its unit. A non-zero amount too small for them
 * (a fee of 0.0004 USDT) keeps two significant digits rather than reading "0.00".
 */
export function formatMoney(
  value: Numeric | null | undefined,
  currency: string,
  options: MoneyOptions = {},
): string {
  const code = currency.toUpperCase();
  const text = moneyText(value, code, options, true);
  return text === EMPTY_VALUE || !code || FIAT.has(code) ? text : `${text} ${code}`;
}

/** The figure of `formatMoney` without its unit, for a screen that sets the unit apart ("−2.53" + "USDT"). */
export function formatMoneyNumber(
  value: Numeric | null | undefined,
  currency: string,
  options: MoneyOptions = {},
): string {
  return moneyText(value, currency.toUpperCase(), options, false);
}

/** Significant digits a quantity or price keeps when its market's step or tick is not known. */
const SIGNIFICANT_DIGITS = 6;

/** Decimals for `SIGNIFICANT_DIGITS` of `amount` ("0.000123456" → 9, "1234.5" → 2), within [floor, 8]. */
function significantDecimals(amount: Intl.StringNumericLiteral | number, floor: number): number {
  const size = Math.abs(Number(amount));
  if (size === 0) return floor;
  return Math.min(8, Math.max(floor, SIGNIFICANT_DIGITS - 1 - Math.floor(Math.log10(size))));
}

/** What the web knows of a market's precision (`GET /market/pairs`): its amount step and price tick. */
export interface MarketPrecision {
  amountStep?: Numeric | null;
  priceTick?: Numeric | null;
}

/**
 * A quantity to its market's step, with its unit when given. Without a step: six significant digits, at
 * most 8 decimals, no trailing zeros ("0.123457", "1,234.57").
 */
export function formatQuantity(
  value: Numeric | null | undefined,
  options: { locale?: string; step?: Numeric | null; unit?: string } = {},
): string {
  const amount = numeric(value);
  if (amount === null) return EMPTY_VALUE;
  const decimals = options.step ? stepDecimals(options.step) : null;
  const text = numberFormat(options.locale ?? DEFAULT_LOCALE, {
    minimumFractionDigits: decimals ?? 0,
    maximumFractionDigits: decimals ?? significantDecimals(amount, 0),
  }).format(amount);
  return options.unit ? `${text} ${options.unit}` : text;
}

/**
 * A price in its quote currency, unit always: to the market's tick when known ("65,432.10 USDT"); else at
 * least the currency's cents (2 decimals at most) and six significant digits ("0.543211 USDT"). `unit: false`
 * for a table whose column header or figure sets the unit apart.
 */
export function formatPrice(
  value: Numeric | null | undefined,
  quote: string,
  options: { locale?: string; tick?: Numeric | null; unit?: boolean } = {},
): string {
  const amount = numeric(value);
  if (amount === null) return EMPTY_VALUE;
  const code = quote.toUpperCase();
  const floor = Math.min(usualDecimals(code), 2);
  const decimals = options.tick ? stepDecimals(options.tick) : null;
  const text = numberFormat(options.locale ?? DEFAULT_LOCALE, {
    minimumFractionDigits: decimals ?? floor,
    maximumFractionDigits: decimals ?? significantDecimals(amount, floor),
  }).format(amount);
  return code && options.unit !== false ? `${text} ${code}` : text;
}

/** The money formatters bound to the user's language. */
export function useMoney() {
  const { locale } = useFormatters();
  return useMemo(
    () => ({
      locale,
      money: (value: Numeric | null | undefined, currency: string) =>
        formatMoney(value, currency, { locale }),
      pnl: (value: Numeric | null | undefined, currency: string) =>
        formatMoney(value, currency, { locale, signDisplay: 'always' }),
      quantity: (value: Numeric | null | undefined, unit?: string, step?: Numeric | null) =>
        formatQuantity(value, { locale, unit, step }),
      price: (value: Numeric | null | undefined, quote: string, tick?: Numeric | null, unit = true) =>
        formatPrice(value, quote, { locale, tick, unit }),
    }),
    [locale],
  );
}
