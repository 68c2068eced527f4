import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { StatusBadge } from '../../../components/ui/status-badge';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { type Row, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { ALERTS_PAGE_SIZE, ALERT_STATUSES, type AlertFilters, useAlerts } from '../api/get-alerts';

const NO_FILTERS: AlertFilters = { page: 1 };

export function AlertsTable() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [filters, setFilters] = useState<AlertFilters>(NO_FILTERS);
  const alerts = useAlerts(filters);
  const setFilter = (name: keyof Omit<AlertFilters, 'page'>, value: string) =>
    setFilters((current) => ({ ...current, [name]: value || undefined, page: 1 }));

  const columns: Column<Row>[] = [
    {
      key: 'time',
      header: t('alerts.columns.received'),
      cell: (alert) => format.dateTime(text(alert, 'receivedAt', 'createdAt', 'created_at')),
    },
    {
      key: 'strategy',
      header: t('alerts.columns.strategyKey'),
      cell: (alert) => (
        <span className="font-mono text-xs">{text(alert, 'strategyKey', 'strategy_key') ?? '—'}</span>
      ),
    },
    { key: 'action', header: t('alerts.columns.action'), cell: (alert) => text(alert, 'action') ?? '—' },
    { key: 'symbol', header: t('alerts.columns.symbol'), cell: (alert) => text(alert, 'symbol') ?? '—' },
    {
      key: 'attempts',
      header: t('alerts.columns.attempts'),
      numeric: true,
      cell: (alert) => text(alert, 'attempts') ?? '0',
    },
    {
      key: 'status',
      header: t('alerts.columns.status'),
      cell: (alert) => <StatusBadge status={text(alert, 'status') ?? '—'} />,
    },
  ];

  const filtered = Object.keys(filters).some((key) => key !== 'page' && filters[key as keyof AlertFilters]);

  return (
    <div className="flex flex-col gap-4">
      <form
        aria-label={t('alerts.filters')}
        onSubmit={(event) => event.preventDefault()}
        className="grid gap-3 rounded-lg border border-line bg-surface p-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"
      >
        <Select
          label={t('alerts.columns.status')}
          value={filters.status ?? ''}
          placeholder={t('alerts.anyStatus')}
          onChange={(event) => setFilter('status', event.target.value)}
          options={ALERT_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
        />
        <Input
          label={t('alerts.from')}
          type="date"
          value={filters.from ?? ''}
          onChange={(event) => setFilter('from', event.target.value)}
        />
        <Input
          label={t('alerts.to')}
          type="date"
          value={filters.to ?? ''}
          onChange={(event) => setFilter('to', event.target.value)}
        />
        <Input
          label={t('alerts.columns.strategyKey')}
          value={filters.strategyKey ?? ''}
          onChange={(event) => setFilter('strategyKey', event.target.value.trim())}
        />
        <Button variant="ghost" disabled={!filtered} onClick={() => setFilters(NO_FILTERS)}>
          {t('alerts.clearFilters')}
        </Button>
      </form>
      <Table
        caption={t('alerts.title')}
        columns={columns}
        rows={alerts.data?.items}
        rowKey={(alert) => text(alert, 'id') ?? JSON.stringify(alert)}
        loading={alerts.isPending}
        error={alerts.isError ? alerts.error : undefined}
        onRetry={() => void alerts.refetch()}
        empty={
          <EmptyState
            title={filtered ? t('alerts.empty.filteredTitle') : t('alerts.empty.title')}
            description={filtered ? t('alerts.empty.filteredDescription') : t('alerts.empty.description')}
          />
        }
        pagination={{
          page: filters.page,
          pageSize: alerts.data?.pageSize ?? ALERTS_PAGE_SIZE,
          total: alerts.data?.total ?? 0,
          onPageChange: (page) => setFilters((current) => ({ ...current, page })),
        }}
      />
    </div>
  );
}
