import { useTranslation } from 'react-i18next';
import { type Numeric, formatPnl, formatPnlPercent, signOf } from '../../lib/format';
import { cn } from '../../lib/cn';
import { useFormatters } from '../../lib/use-formatters';

export interface PnlTextProps {
  value: Numeric | null | undefined;
  /** Currency amount (default) or a percentage in percent units. */
  kind?: 'currency' | 'percent';
  currency?: string;
  className?: string;
}

/** Gain or loss with its sign, an arrow and a colour: never colour alone. */
export function PnlText({ value, kind = 'currency', currency, className }: PnlTextProps) {
  const { t } = useTranslation();
  const { locale, currency: displayCurrency } = useFormatters();
  const sign = signOf(value);
  const text =
    kind === 'percent'
      ? formatPnlPercent(value, { locale })
      : formatPnl(value, { locale, currency: currency ?? displayCurrency });
  const label = sign > 0 ? t('pnl.gain') : sign < 0 ? t('pnl.loss') : t('pnl.flat');
  return (
    <span
      className={cn(
        'num inline-flex items-center gap-1 whitespace-nowrap',
        sign > 0 ? 'text-gain' : sign < 0 ? 'text-loss' : 'text-muted',
        className,
      )}
    >
      <span aria-hidden="true" className="text-[0.8em]">
        {sign > 0 ? '▲' : sign < 0 ? '▼' : '■'}
      </span>
      <span className="sr-only">{label} </span>
      {text}
    </span>
  );
}
