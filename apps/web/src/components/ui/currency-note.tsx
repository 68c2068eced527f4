import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/translate-message';
import { formatDecimal } from '../../lib/format';
import { useFormatters } from '../../lib/use-formatters';
import { InfoIcon } from './icons';

/** The server's word on the currency of its amounts (GET /api/dashboard, /portfolio). */
export interface AmountsCurrency {
  currency: string;
  /** Converted from USDT at `rate` (units of `currency` per USDT). */
  converted: boolean;
  rate: string | null;
  rateSource: string | null;
}

/** A chart's unit: "USD", or "≈ EUR" when the amounts were converted; the display currency when unsaid. */
export function useCurrencyUnits(currency: AmountsCurrency | undefined): string {
  const { t } = useTranslation();
  const display = useFormatters().currency;
  if (!currency) return display;
  return currency.converted
    ? t('dashboard.currency.converted', { currency: currency.currency })
    : currency.currency;
}

/** "Converted from USDT at 1 USDT = … EUR": converted amounts never pass for the venue's own. */
export function CurrencyConversionNote({ currency }: { currency: AmountsCurrency | undefined }) {
  const { t } = useTranslation();
  const { locale } = useFormatters();
  if (!currency?.converted) return null;
  return (
    <p className="flex items-center gap-1.5 text-xs text-muted" data-testid="currency-conversion">
      <InfoIcon size={14} className="shrink-0 text-subtle" />
      {t('dashboard.currency.convertedNote', {
        rate: formatDecimal(currency.rate, { locale }),
        currency: currency.currency,
        // The server's label, in the user's language where the catalogue knows it.
        source: translateMessage(t, currency.rateSource ?? 'EUR/USDT'),
      })}
    </p>
  );
}
