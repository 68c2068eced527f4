import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type Numeric, formatDecimal, formatPnl, formatPnlPercent, signOf } from '../../lib/format';
import { cn } from '../../lib/cn';
import { formatMoney } from '../../lib/money';
import { useFormatters } from '../../lib/use-formatters';

export interface PnlTextProps {
  value: Numeric | null | undefined;
  /**
   * Currency amount (default), a percentage in percent units, a plain decimal (e.g. USDT, no ISO code), or
   * money: an amount of `currency` (USDT, BTC, EUR…) to its usual decimals with its unit (lib/money).
   */
  kind?: 'currency' | 'percent' | 'decimal' | 'money';
  currency?: string;
  className?: string;
  /** After the figure, e.g. the code of a currency Intl does not know. */
  children?: ReactNode;
}

/** Gain or loss with its sign, an arrow and a colour: never colour alone. */
export function PnlText({ value, kind = 'currency', currency, className, children }: PnlTextProps) {
  const { t } = useTranslation();
  const { locale, currency: displayCurrency } = useFormatters();
  const sign = signOf(value);
  const text =
    kind === 'percent'
      ? formatPnlPercent(value, { locale })
      : kind === 'decimal'
        ? formatDecimal(value, { locale, signDisplay: 'always' })
        : kind === 'money'
          ? formatMoney(value, currency ?? displayCurrency, { locale, signDisplay: 'always' })
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
      {children}
    </span>
  );
}
