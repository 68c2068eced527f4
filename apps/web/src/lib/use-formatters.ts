import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Numeric,
  formatCurrency,
  formatDateTime,
  formatDecimal,
  formatPercent,
  formatPnl,
  formatPnlPercent,
} from './format';
import { type InstantStyle, formatInstant } from './format-time';
import { displayCurrency, usePreferences } from './preferences-store';

/** Formatters bound to the current language and display currency. */
export function useFormatters() {
  const { i18n } = useTranslation();
  const picked = usePreferences((state) => state.currency);
  const timeZone = usePreferences((state) => state.timezone) ?? undefined;
  const locale = i18n.resolvedLanguage ?? i18n.language ?? 'en-US';
  const currency = displayCurrency(locale, picked);
  return useMemo(
    () => ({
      locale,
      currency,
      currencyValue: (value: Numeric | null | undefined, code?: string) =>
        formatCurrency(value, { locale, currency: code ?? currency }),
      decimal: (value: Numeric | null | undefined) => formatDecimal(value, { locale }),
      percent: (value: Numeric | null | undefined) => formatPercent(value, { locale }),
      pnl: (value: Numeric | null | undefined, code?: string) =>
        formatPnl(value, { locale, currency: code ?? currency }),
      pnlPercent: (value: Numeric | null | undefined) => formatPnlPercent(value, { locale }),
      dateTime: (value: string | number | Date | null | undefined) =>
        formatDateTime(value, { locale, timeZone }),
      /** An instant in the user's zone, in one of the app's shapes (lib/format-time.ts). */
      time: (value: string | number | Date | null | undefined, style: InstantStyle) =>
        formatInstant(value, { locale, timeZone, style }),
    }),
    [locale, currency, timeZone],
  );
}
