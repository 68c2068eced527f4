import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { StatusBadge } from '../../../components/ui/status-badge';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { useFormatters } from '../../../lib/use-formatters';
import { ALERTS_PAGE_SIZE } from '../api/alert-filters';
import { type AdminAlert, useAlerts } from '../api/get-alerts';
import type { AlertFilters } from '../api/alert-filters';
import { AlertActionLabel, OutcomeCounts } from './alert-labels';
import type { AlertActions } from './use-alert-actions';

/** The row's buttons act on the alert without opening it. */
function stop(event: MouseEvent) {
  event.stopPropagation();
}

export function AlertsTable({
  filters,
  filtered,
  onPageChange,
  onOpen,
  onClearFilters,
  actions,
}: {
  filters: AlertFilters;
  filtered: boolean;
  onPageChange: (page: number) => void;
  onOpen: (alert: AdminAlert) => void;
  onClearFilters: () => void;
  actions: AlertActions;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const alerts = useAlerts(filters);

  const columns: Column<AdminAlert>[] = [
    {
      key: 'received',
      header: t('alerts.columns.received'),
      cell: (alert) => (
        <button
          type="button"
          onClick={(event) => {
            stop(event);
            onOpen(alert);
          }}
          className="num text-left text-fg hover:text-accent hover:underline"
          aria-label={t('alerts.open', { time: format.dateTime(alert.receivedAt) })}
        >
          {format.dateTime(alert.receivedAt)}
        </button>
      ),
    },
    {
      key: 'strategyKey',
      header: t('alerts.columns.strategyKey'),
      cell: (alert) => <span className="font-mono text-xs">{alert.strategyKey}</span>,
    },
    {
      key: 'action',
      header: t('alerts.columns.action'),
      cell: (alert) => <AlertActionLabel action={alert.action} />,
    },
    { key: 'symbol', header: t('alerts.columns.symbol'), cell: (alert) => alert.symbol || '—' },
    {
      key: 'outcomes',
      header: t('alerts.columns.outcomes'),
      cell: (alert) => <OutcomeCounts outcomes={alert.outcomes} />,
    },
    {
      key: 'attempts',
      header: t('alerts.columns.attempts'),
      numeric: true,
      cell: (alert) => t('alerts.attemptsOf', { attempts: alert.attempts, max: alert.maxAttempts }),
    },
    {
      key: 'status',
      header: t('alerts.columns.status'),
      cell: (alert) => <StatusBadge status={alert.status} />,
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('alerts.columns.actions')}</span>,
      className: 'w-px',
      cell: (alert) => (
        <span className="flex justify-end gap-1.5" onClick={stop}>
          {alert.canMarkDead ? (
            <Button size="sm" variant="secondary" onClick={() => actions.markDead(alert)}>
              {t('alerts.actions.markDead')}
            </Button>
          ) : null}
          {alert.canResume ? (
            <Button
              size="sm"
              variant="secondary"
              loading={actions.resumingId === alert.id}
              onClick={() => void actions.resume(alert)}
            >
              {t('alerts.actions.resume')}
            </Button>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <Table
      caption={t('alerts.title')}
      columns={columns}
      rows={alerts.data?.items}
      rowKey={(alert) => alert.id}
      onRowClick={onOpen}
      loading={alerts.isPending}
      error={alerts.isError ? alerts.error : undefined}
      onRetry={() => void alerts.refetch()}
      empty={
        filtered ? (
          <EmptyState
            title={t('alerts.empty.filteredTitle')}
            description={t('alerts.empty.filteredDescription')}
            actions={
              <Button variant="secondary" size="sm" onClick={onClearFilters}>
                {t('alerts.clearFilters')}
              </Button>
            }
          />
        ) : (
          <EmptyState title={t('alerts.empty.title')} description={t('alerts.empty.description')} />
        )
      }
      pagination={{
        page: filters.page,
        pageSize: alerts.data?.pageSize ?? ALERTS_PAGE_SIZE,
        total: alerts.data?.total ?? 0,
        onPageChange,
      }}
    />
  );
}
