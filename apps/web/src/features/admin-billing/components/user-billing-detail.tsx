import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, Stat } from '../../../components/ui/card';
import { PlusIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { useFormatters } from '../../../lib/use-formatters';
import {
  type BillingRecord,
  type BillingUserDetail,
  type Invoice,
  useBillingUser,
} from '../api/get-billing-user';
import { BILLING_PAGE_SIZE } from '../api/get-billing-users';
import {
  InvoiceStatusBadge,
  Money,
  RecordStatusBadge,
  YesNo,
  useDateLabel,
  usePeriodLabel,
} from './billing-labels';
import {
  CreateInvoiceDialog,
  InvoiceDialog,
  PayInvoiceDialog,
  VoidInvoiceDialog,
  invoiceableRecords,
  isInvoiceUnsettled,
} from './invoice-dialogs';
import { PlanForm } from './plan-form';
import { RecordEventsDialog } from './record-events-dialog';
import { useSearchWriter } from '../../../lib/use-search-writer';

const OPEN_INVOICE = 'invoice';

function SectionHeader({
  id,
  title,
  description,
  actions,
}: {
  id: string;
  title: ReactNode;
  description: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h2 id={id} className="text-sm font-semibold text-fg">
          {title}
        </h2>
        <p className="mt-0.5 text-xs text-muted">{description}</p>
      </div>
      {actions}
    </div>
  );
}

/** The rows of one client-side page (the detail carries every record and invoice of the user). */
function pageOf<T>(rows: T[], page: number): T[] {
  return rows.slice((page - 1) * BILLING_PAGE_SIZE, page * BILLING_PAGE_SIZE);
}

/** AdminUserBillingDetail (spec §2): the plan, the month in progress, records and invoices with their actions. */
export function UserBillingDetail({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const billing = useBillingUser(userId);

  let body;
  if (billing.isPending) {
    body = (
      <div role="status" aria-label={t('common.loading')} className="flex flex-col gap-4">
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} className="h-[74px] rounded-lg" />
          ))}
        </div>
        <Skeleton className="h-48 rounded-lg" />
      </div>
    );
  } else if (billing.isError) {
    body = (
      <Card>
        <ErrorState error={billing.error} onRetry={() => void billing.refetch()} />
      </Card>
    );
  } else body = <BillingDetail detail={billing.data} />;

  return (
    <>
      <Link to={paths.adminBilling} className="mb-3 inline-block text-sm text-muted hover:text-fg">
        ← {t('billing.back')}
      </Link>
      <PageHeader
        title={billing.data?.email ?? t('billing.detail.title')}
        description={
          <>
            {t('billing.detail.title')} · <span className="font-mono text-xs">{userId}</span>
          </>
        }
      />
      {body}
    </>
  );
}

function BillingDetail({ detail }: { detail: BillingUserDetail }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const periodLabel = usePeriodLabel();
  const dateLabel = useDateLabel();
  const [search, setSearch] = useSearchWriter();
  const [dialog, setDialog] = useState<
    { kind: 'pay' | 'void'; invoice: Invoice } | { kind: 'create' } | null
  >(null);
  const [invoicePage, setInvoicePage] = useState(1);
  const [recordPage, setRecordPage] = useState(1);
  const openInvoiceId = search.get(OPEN_INVOICE);
  const openInvoice = detail.invoices.find((invoice) => invoice.id === openInvoiceId);
  const invoiceable = invoiceableRecords(detail.records);

  const showInvoice = (id: string | null) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set(OPEN_INVOICE, id);
      else next.delete(OPEN_INVOICE);
      return next;
    });

  const invoiceColumns: Column<Invoice>[] = [
    {
      key: 'number',
      header: t('billing.invoices.number'),
      cell: (invoice) => (
        <button
          type="button"
          onClick={() => showInvoice(invoice.id)}
          className="num text-accent hover:underline"
          aria-label={t('billing.invoice.open', { number: invoice.number })}
        >
          {invoice.number}
        </button>
      ),
    },
    {
      key: 'period',
      header: t('billing.invoices.period'),
      cell: (invoice) => periodLabel(invoice, { start: true }),
    },
    {
      key: 'amount',
      header: t('billing.invoices.amount'),
      numeric: true,
      cell: (invoice) => <Money value={invoice.amount} currency={invoice.currency} />,
    },
    {
      key: 'status',
      header: t('billing.invoices.status'),
      cell: (invoice) => <InvoiceStatusBadge status={invoice.status} />,
    },
    {
      key: 'issuedAt',
      header: t('billing.invoices.issuedAt'),
      cell: (invoice) => <span className="num">{dateLabel(invoice.issuedAt)}</span>,
    },
    {
      key: 'dueDate',
      header: t('billing.invoices.dueDate'),
      cell: (invoice) => <span className="num">{dateLabel(invoice.dueDate)}</span>,
    },
    {
      key: 'settled',
      header: t('billing.invoices.settled'),
      cell: (invoice) =>
        invoice.paidAt || invoice.voidedAt ? (
          <span className="num">{dateLabel(invoice.paidAt ?? invoice.voidedAt)}</span>
        ) : (
          <span className="text-subtle">—</span>
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('billing.invoices.actions')}</span>,
      className: 'w-px',
      cell: (invoice) => (
        <span className="flex justify-end gap-1.5">
          {isInvoiceUnsettled(invoice) ? (
            <>
              <Button size="sm" variant="secondary" onClick={() => setDialog({ kind: 'pay', invoice })}>
                {t('billing.invoice.markPaid')}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => setDialog({ kind: 'void', invoice })}>
                {t('billing.invoice.voidShort')}
              </Button>
            </>
          ) : null}
        </span>
      ),
    },
  ];

  const [eventsOf, setEventsOf] = useState<BillingRecord | null>(null);
  const recordColumns: Column<BillingRecord>[] = [
    {
      key: 'period',
      header: t('billing.records.period'),
      cell: (record) => periodLabel(record, { start: true }),
    },
    {
      key: 'profit',
      header: t('billing.records.profit'),
      numeric: true,
      cell: (record) => <Money value={record.profit} currency={null} signed />,
    },
    {
      key: 'cumulative',
      header: t('billing.records.cumulative'),
      numeric: true,
      cell: (record) => <Money value={record.cumulativeProfit} currency={null} />,
    },
    {
      key: 'hwm',
      header: t('billing.records.highWaterMark'),
      numeric: true,
      cell: (record) => (
        <span className="num">
          {format.decimal(record.highWaterMarkBefore)} → {format.decimal(record.highWaterMarkAfter)}
        </span>
      ),
    },
    {
      key: 'percent',
      header: t('billing.columns.planPercent'),
      numeric: true,
      cell: (record) => format.percent(record.percent),
    },
    {
      key: 'feeable',
      header: t('billing.records.feeable'),
      numeric: true,
      cell: (record) => <Money value={record.feeableProfit} currency={null} />,
    },
    {
      key: 'fee',
      header: t('billing.records.fee'),
      numeric: true,
      cell: (record) => <Money value={record.fee} currency={null} className="font-medium" />,
    },
    {
      key: 'status',
      header: t('billing.records.status'),
      cell: (record) => <RecordStatusBadge status={record.status} />,
    },
    {
      key: 'events',
      header: t('billing.records.events'),
      cell: (record) => (
        <button type="button" onClick={() => setEventsOf(record)} className="text-accent hover:underline">
          {t('billing.records.showEvents')}
        </button>
      ),
    },
    {
      key: 'invoice',
      header: t('billing.records.invoice'),
      cell: (record) => {
        const invoice = detail.invoices.find((candidate) => candidate.id === record.invoiceId);
        return invoice ? (
          <button
            type="button"
            onClick={() => showInvoice(invoice.id)}
            className="num text-accent hover:underline"
          >
            {invoice.number}
          </button>
        ) : (
          <span className="text-subtle">—</span>
        );
      },
    },
  ];

  return (
    <div className="flex flex-col gap-5">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Stat
          label={t('billing.columns.planPercent')}
          value={detail.plan ? format.percent(detail.plan.percent) : t('billing.noPlan')}
        />
        <Stat label={t('billing.columns.active')} value={<YesNo value={detail.plan?.active} />} />
        <Stat label={t('billing.columns.autoCharge')} value={<YesNo value={detail.plan?.autoCharge} />} />
        <Stat
          label={t('billing.detail.highWaterMark')}
          value={<Money value={detail.currentMonth.highWaterMark} />}
          hint={t('billing.detail.highWaterMarkHint')}
        />
        <Stat
          label={t('billing.detail.currentMonth', {
            period: periodLabel(detail.currentMonth, { start: true }),
          })}
          value={<Money value={detail.currentMonth.profit} signed />}
          hint={
            <>
              {t('billing.estimatedFee')} <Money value={detail.currentMonth.estimatedFee} />
            </>
          }
        />
      </div>

      <PlanForm key={detail.plan?.updatedAt ?? 'none'} detail={detail} />
      <section aria-labelledby="billing-invoices" className="flex flex-col gap-3">
        <SectionHeader
          id="billing-invoices"
          title={t('billing.invoices.title')}
          description={t('billing.invoices.description')}
          actions={
            <Button
              size="sm"
              variant="secondary"
              icon={<PlusIcon size={14} />}
              disabled={invoiceable.length === 0}
              title={invoiceable.length === 0 ? t('billing.invoice.nothingToInvoice') : undefined}
              onClick={() => setDialog({ kind: 'create' })}
            >
              {t('billing.invoice.create')}
            </Button>
          }
        />
        <Table
          caption={t('billing.invoices.title')}
          columns={invoiceColumns}
          rows={pageOf(detail.invoices, invoicePage)}
          rowKey={(invoice) => invoice.id}
          empty={
            <EmptyState
              title={t('billing.invoices.empty')}
              description={
                invoiceable.length > 0
                  ? t('billing.invoices.emptyCanCreate')
                  : t('billing.invoices.emptyHint')
              }
            />
          }
          pagination={{
            page: invoicePage,
            pageSize: BILLING_PAGE_SIZE,
            total: detail.invoices.length,
            onPageChange: setInvoicePage,
          }}
        />
      </section>

      <section aria-labelledby="billing-records" className="flex flex-col gap-3">
        <SectionHeader
          id="billing-records"
          title={t('billing.records.title')}
          description={t('billing.records.description')}
        />
        <Table
          caption={t('billing.records.title')}
          columns={recordColumns}
          rows={pageOf(detail.records, recordPage)}
          rowKey={(record) => record.id}
          empty={
            <EmptyState title={t('billing.records.empty')} description={t('billing.records.emptyHint')} />
          }
          pagination={{
            page: recordPage,
            pageSize: BILLING_PAGE_SIZE,
            total: detail.records.length,
            onPageChange: setRecordPage,
          }}
        />
      </section>

      {openInvoice && !dialog ? (
        <InvoiceDialog
          invoice={openInvoice}
          onClose={() => showInvoice(null)}
          onPay={() => setDialog({ kind: 'pay', invoice: openInvoice })}
          onVoid={() => setDialog({ kind: 'void', invoice: openInvoice })}
        />
      ) : null}
      {dialog?.kind === 'pay' ? (
        <PayInvoiceDialog invoice={dialog.invoice} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'void' ? (
        <VoidInvoiceDialog invoice={dialog.invoice} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'create' ? (
        <CreateInvoiceDialog
          userId={detail.userId}
          records={invoiceable}
          onClose={() => setDialog(null)}
          onCreated={(invoice) => {
            setDialog(null);
            showInvoice(invoice.id);
          }}
        />
      ) : null}
      <RecordEventsDialog record={eventsOf} onClose={() => setEventsOf(null)} />
    </div>
  );
}
