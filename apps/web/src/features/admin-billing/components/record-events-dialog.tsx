import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { paths } from '../../../config/paths';
import { type BillingRecordEvent, useRecordEvents } from '../api/get-record-events';
import type { BillingRecord } from '../api/get-billing-user';
import { Money, useDateLabel, usePeriodLabel } from './billing-labels';

/** The ledger events behind a month's profit (issue 19): each amount, the rate it was billed at, and when. */
export function RecordEventsDialog({
  record,
  onClose,
}: {
  record: BillingRecord | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dateLabel = useDateLabel();
  const periodLabel = usePeriodLabel();
  const events = useRecordEvents(record?.id ?? null);
  const columns: Column<BillingRecordEvent>[] = [
    { key: 'effective', header: t('billing.events.effective'), cell: (e) => dateLabel(e.effectiveAt) },
    { key: 'booked', header: t('billing.events.booked'), cell: (e) => dateLabel(e.bookedAt) },
    {
      key: 'trade',
      header: t('billing.events.trade'),
      cell: (e) =>
        e.tradeId ? (
          <a className="num text-accent hover:underline" href={paths.trade(e.tradeId)}>
            {e.tradeId.slice(0, 8)}
          </a>
        ) : (
          <span className="text-subtle">—</span>
        ),
    },
    {
      key: 'amount',
      header: t('billing.events.amount'),
      numeric: true,
      cell: (e) => <Money value={e.amount} currency={e.currency} signed />,
    },
    {
      key: 'rate',
      header: t('billing.events.rate'),
      numeric: true,
      cell: (e) => (e.rateSource ? <span title={e.rateSource}>{e.rate}</span> : e.rate),
    },
    {
      key: 'usdt',
      header: t('billing.events.usdt'),
      numeric: true,
      cell: (e) => <Money value={e.amountUsdt} signed />,
    },
  ];
  return (
    <Dialog
      open={record !== null}
      onClose={onClose}
      size="lg"
      title={t('billing.events.title', { period: record ? periodLabel(record, { start: true }) : '' })}
      description={t('billing.events.description')}
    >
      {events.isPending ? (
        <Skeleton className="h-24" />
      ) : events.isError ? (
        <ErrorState error={events.error} onRetry={() => void events.refetch()} />
      ) : (
        <Table
          caption={t('billing.events.caption')}
          columns={columns}
          rows={events.data}
          rowKey={(e) => String(e.id)}
          empty={<EmptyState title={t('billing.events.empty')} />}
        />
      )}
    </Dialog>
  );
}
