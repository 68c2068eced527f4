import type { MyBillingMonth, MyInvoice } from '@kairos/contract';
import { useTranslation } from 'react-i18next';
import { Card, Stat } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { Badge, type Tone } from '../../../components/ui/status-badge';
import type { Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
import { useFormatters } from '../../../lib/use-formatters';
import { Money, useDateLabel, usePeriodLabel } from '../../admin-billing/components/billing-labels';
import { type MyBilling, useMyBilling } from '../api/get-my-billing';

const MONTH_STYLES: Record<MyBillingMonth['status'], { tone: Tone; glyph: string }> = {
  no_fee: { tone: 'neutral', glyph: '○' },
  waived: { tone: 'neutral', glyph: '⊘' },
  pending: { tone: 'warning', glyph: '…' },
  invoiced: { tone: 'info', glyph: '●' },
  paid: { tone: 'success', glyph: '✓' },
};
const INVOICE_STYLES: Record<MyInvoice['status'], { tone: Tone; glyph: string }> = {
  draft: { tone: 'neutral', glyph: '○' },
  open: { tone: 'warning', glyph: '●' },
  paid: { tone: 'success', glyph: '✓' },
  void: { tone: 'neutral', glyph: '⊘' },
};

/**
 * The user's own billing (issue 21): their plan, the month in progress, each month billed (profit, high-water
 * mark, fee) and their invoices, with what the fee is taken on said plainly.
 */
export function MyBillingView() {
  const { t } = useTranslation();
  const billing = useMyBilling();
  if (billing.isPending)
    return (
      <div role="status" aria-label={t('common.loading')} className="flex flex-col gap-4">
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} className="h-[74px] rounded-lg" />
          ))}
        </div>
        <Skeleton className="h-48 rounded-lg" />
      </div>
    );
  if (billing.isError)
    return (
      <Card>
        <ErrorState error={billing.error} onRetry={() => void billing.refetch()} />
      </Card>
    );
  return <BillingFigures billing={billing.data} />;
}

function BillingFigures({ billing }: { billing: MyBilling }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const periodLabel = usePeriodLabel();
  const dateLabel = useDateLabel();
  const { plan, currentMonth } = billing;
  const due = billing.invoices
    .filter((invoice) => invoice.status === 'open')
    .reduce((total, invoice) => total + Number(invoice.amount), 0);

  const monthColumns: Column<MyBillingMonth>[] = [
    {
      key: 'period',
      header: t('myBilling.months.period'),
      cell: (month) => periodLabel(month, { start: true }),
    },
    {
      key: 'profit',
      header: t('myBilling.months.profit'),
      numeric: true,
      cell: (month) => <Money value={month.profit} signed currency={null} />,
    },
    {
      key: 'mark',
      header: t('myBilling.months.highWaterMark'),
      numeric: true,
      cell: (month) => (
        <span className="num whitespace-nowrap">
          {format.decimal(month.highWaterMarkBefore)} → {format.decimal(month.highWaterMarkAfter)}
        </span>
      ),
    },
    {
      key: 'feeable',
      header: t('myBilling.months.feeable'),
      numeric: true,
      cell: (month) => <Money value={month.feeableProfit} currency={null} />,
    },
    {
      key: 'fee',
      header: t('myBilling.months.fee'),
      numeric: true,
      cell: (month) => (
        <span className="flex flex-col items-end">
          <Money value={month.fee} currency={null} />
          <span className="text-xs text-subtle">{format.percent(month.percent)}</span>
        </span>
      ),
    },
    {
      key: 'status',
      header: t('myBilling.months.status'),
      cell: (month) => (
        <StatusBadge style={MONTH_STYLES[month.status]} label={t(`myBilling.monthStatus.${month.status}`)} />
      ),
    },
  ];
  const invoiceColumns: Column<MyInvoice>[] = [
    {
      key: 'number',
      header: t('myBilling.invoices.number'),
      cell: (invoice) => <span className="num">{invoice.number}</span>,
    },
    {
      key: 'period',
      header: t('myBilling.invoices.period'),
      cell: (invoice) => periodLabel(invoice, { start: true }),
    },
    {
      key: 'amount',
      header: t('myBilling.invoices.amount'),
      numeric: true,
      cell: (invoice) => <Money value={invoice.amount} currency={invoice.currency} />,
    },
    {
      key: 'status',
      header: t('myBilling.invoices.status'),
      cell: (invoice) => (
        <span title={invoice.voidReason ?? undefined}>
          <StatusBadge
            style={INVOICE_STYLES[invoice.status]}
            label={t(`myBilling.invoiceStatus.${invoice.status}`)}
          />
        </span>
      ),
    },
    {
      key: 'issued',
      header: t('myBilling.invoices.issuedAt'),
      cell: (invoice) => dateLabel(invoice.issuedAt),
    },
    { key: 'due', header: t('myBilling.invoices.dueDate'), cell: (invoice) => dateLabel(invoice.dueDate) },
    { key: 'paid', header: t('myBilling.invoices.paidAt'), cell: (invoice) => dateLabel(invoice.paidAt) },
  ];

  return (
    <div className="flex flex-col gap-6">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat
          label={t('myBilling.plan.title')}
          value={plan ? format.percent(plan.percent) : t('myBilling.plan.none')}
          hint={
            !plan
              ? t('myBilling.plan.noneHint')
              : plan.active
                ? t('myBilling.plan.hint')
                : t('myBilling.plan.inactive')
          }
        />
        <Stat
          label={t('myBilling.current.title', { period: periodLabel(currentMonth, { start: true }) })}
          value={<Money value={currentMonth.profit} signed />}
          hint={
            <>
              {t('myBilling.current.feeSoFar')} <Money value={currentMonth.estimatedFee} />
            </>
          }
        />
        <Stat
          label={t('myBilling.highWaterMark.title')}
          value={<Money value={currentMonth.highWaterMark} />}
          hint={t('myBilling.highWaterMark.hint')}
        />
        <Stat
          label={t('myBilling.due.title')}
          value={<Money value={String(due)} />}
          hint={t('myBilling.due.hint', {
            count: billing.invoices.filter((i) => i.status === 'open').length,
          })}
        />
      </div>
      <Card className="px-4 py-3 text-sm text-muted">
        <h2 className="mb-1 text-sm font-semibold text-fg">{t('myBilling.how.title')}</h2>
        <p>{t('myBilling.how.text')}</p>
      </Card>
      <section aria-labelledby="billing-months" className="flex flex-col gap-2">
        <h2 id="billing-months" className="text-sm font-semibold text-fg">
          {t('myBilling.months.title')}
        </h2>
        <TableOrCards
          caption={t('myBilling.months.title')}
          columns={monthColumns}
          rows={billing.months}
          rowKey={(month) => month.id}
          loading={false}
          error={undefined}
          onRetry={() => undefined}
          empty={
            <EmptyState title={t('myBilling.months.empty')} description={t('myBilling.months.emptyHint')} />
          }
          card={(month) => (
            <div className="flex flex-col gap-1.5 rounded-lg border border-line bg-surface p-3 text-sm">
              <span className="flex items-center justify-between gap-2">
                <span className="font-medium text-fg">{periodLabel(month, { start: true })}</span>
                <StatusBadge
                  style={MONTH_STYLES[month.status]}
                  label={t(`myBilling.monthStatus.${month.status}`)}
                />
              </span>
              <span className="flex justify-between gap-2">
                <span className="text-muted">{t('myBilling.months.profit')}</span>
                <Money value={month.profit} signed />
              </span>
              <span className="flex justify-between gap-2">
                <span className="text-muted">{t('myBilling.months.fee')}</span>
                <Money value={month.fee} />
              </span>
            </div>
          )}
        />
      </section>
      <section aria-labelledby="billing-invoices" className="flex flex-col gap-2">
        <h2 id="billing-invoices" className="text-sm font-semibold text-fg">
          {t('myBilling.invoices.title')}
        </h2>
        <TableOrCards
          caption={t('myBilling.invoices.title')}
          columns={invoiceColumns}
          rows={billing.invoices}
          rowKey={(invoice) => invoice.id}
          loading={false}
          error={undefined}
          onRetry={() => undefined}
          empty={
            <EmptyState
              title={t('myBilling.invoices.empty')}
              description={t('myBilling.invoices.emptyHint')}
            />
          }
          card={(invoice) => (
            <div className="flex flex-col gap-1.5 rounded-lg border border-line bg-surface p-3 text-sm">
              <span className="flex items-center justify-between gap-2">
                <span className="num font-medium text-fg">{invoice.number}</span>
                <StatusBadge
                  style={INVOICE_STYLES[invoice.status]}
                  label={t(`myBilling.invoiceStatus.${invoice.status}`)}
                />
              </span>
              <span className="flex justify-between gap-2">
                <span className="text-muted">{periodLabel(invoice, { start: true })}</span>
                <Money value={invoice.amount} currency={invoice.currency} />
              </span>
              <span className="text-xs text-muted">
                {t('myBilling.invoices.dueDate')} {dateLabel(invoice.dueDate)}
              </span>
            </div>
          )}
        />
      </section>
    </div>
  );
}

function StatusBadge({ style, label }: { style: { tone: Tone; glyph: string }; label: string }) {
  return (
    <Badge tone={style.tone} glyph={style.glyph}>
      {label}
    </Badge>
  );
}
