import type { BillingUserDetail } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { PnlText } from '../../../components/ui/pnl-text';
import { Badge, type Tone } from '../../../components/ui/status-badge';
import { cn } from '../../../lib/cn';
import type { Numeric } from '../../../lib/format';
import { formatDay } from '../../../lib/format-time';
import { useFormatters } from '../../../lib/use-formatters';
import type { Period } from '../api/process-month';
import { formatMoneyNumber } from '../../../lib/money';

type RecordStatus = BillingUserDetail['records'][number]['status'];
type InvoiceStatus = BillingUserDetail['invoices'][number]['status'];

const RECORD_STYLES: Record<RecordStatus, { tone: Tone; glyph: string }> = {
  no_fee: { tone: 'neutral', glyph: '○' },
  waived: { tone: 'neutral', glyph: '⊘' },
  pending: { tone: 'warning', glyph: '…' },
  invoiced: { tone: 'info', glyph: '●' },
  paid: { tone: 'success', glyph: '✓' },
};

const INVOICE_STYLES: Record<InvoiceStatus, { tone: Tone; glyph: string }> = {
  draft: { tone: 'neutral', glyph: '○' },
  open: { tone: 'info', glyph: '●' },
  paid: { tone: 'success', glyph: '✓' },
  void: { tone: 'neutral', glyph: '⊘' },
};

export function RecordStatusBadge({ status }: { status: RecordStatus }) {
  const { t } = useTranslation();
  const style = RECORD_STYLES[status];
  return (
    <Badge tone={style.tone} glyph={style.glyph}>
      {t(`billing.recordStatus.${status}`)}
    </Badge>
  );
}

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  const style = INVOICE_STYLES[status];
  return (
    <Badge tone={style.tone} glyph={style.glyph}>
      {t(`billing.invoiceStatus.${status}`)}
    </Badge>
  );
}

export function YesNo({ value }: { value: boolean | undefined }) {
  const { t } = useTranslation();
  if (value === undefined) return <span className="text-subtle">—</span>;
  return value ? (
    <Badge tone="success" glyph="✓">
      {t('common.yes')}
    </Badge>
  ) : (
    <Badge glyph="–">{t('common.no')}</Badge>
  );
}

/**
 * "October 2026" / "octobre 2026" inside a sentence; `{ start: true }` for a label or a cell,
 * where French capitalises the month too ("Octobre 2026").
 */
export function usePeriodLabel() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return ({ year, month }: Period, { start = false }: { start?: boolean } = {}) => {
    const label = format.format(Date.UTC(year, month - 1, 1));
    return start ? label.charAt(0).toLocaleUpperCase() + label.slice(1) : label;
  };
}

/**
 * An amount in the currency the server bills in (USDT by default): Intl has no code for USDT,
 * so the figure is a decimal and the code follows it. `signed` is for profits: sign, arrow, colour.
 */
export function Money({
  value,
  currency = 'USDT',
  signed = false,
  className,
}: {
  value: Numeric | null | undefined;
  /** null in tables whose header names the currency. */
  currency?: string | null;
  signed?: boolean;
  className?: string;
}) {
  const { locale } = useFormatters();
  const code = currency ? (
    <>
      {' '}
      <span className="text-xs text-subtle">{currency}</span>
    </>
  ) : null;
  if (!signed) {
    return (
      <span className={cn('num whitespace-nowrap', className)}>
        {formatMoneyNumber(value, currency ?? 'USDT', { locale })}
        {code}
      </span>
    );
  }
  return <PnlText value={value} kind="money" currency={currency ?? ''} className={className} />;
}

/**
 * Dates without a time: an instant (issued, paid) in the admin's time zone, or a calendar day
 * (`2026-12-05`, a due date) as it is.
 */
export function useDateLabel() {
  const format = useFormatters();
  return (value: string | null | undefined): string => {
    if (!value) return '—';
    // A bare day is that day wherever the user is; an instant is read in the user's zone.
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(value, format.locale);
    return format.time(value, 'date');
  };
}
