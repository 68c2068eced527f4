import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { StatusBadge } from '../../../components/ui/status-badge';
import { EmptyState, queryState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
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
      cell: (alert) => <RowActions alert={alert} actions={actions} />,
    },
  ];

  return (
    <TableOrCards
      caption={t('alerts.title')}
      columns={columns}
      rows={alerts.data?.items ?? []}
      rowKey={(alert) => alert.id}
      onRowClick={onOpen}
      card={(alert) => <AlertCard alert={alert} onOpen={onOpen} actions={actions} />}
      {...queryState(alerts)}
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

/** What can be done to an alert from the list: mark it dead, resume it. */
function RowActions({ alert, actions }: { alert: AdminAlert; actions: AlertActions }) {
  const { t } = useTranslation();
  if (!alert.canMarkDead && !alert.canResume) return null;
  return (
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
  );
}

/** An alert on a phone (< 640 px): its status and actions on screen, the rest one tap away (issue 21). */
function AlertCard({
  alert,
  onOpen,
  actions,
}: {
  alert: AdminAlert;
  onOpen: (alert: AdminAlert) => void;
  actions: AlertActions;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <article className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3 text-sm">
      <span className="flex items-center justify-between gap-2">
        <span className="flex min-w-0 items-center gap-2">
          <span className="truncate font-mono text-xs text-fg">{alert.strategyKey}</span>
          <AlertActionLabel action={alert.action} />
        </span>
        <StatusBadge status={alert.status} />
      </span>
      <span className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
        <span>{alert.symbol || '—'}</span>
        <OutcomeCounts outcomes={alert.outcomes} />
        <span className="num">
          {t('alerts.attemptsOf', { attempts: alert.attempts, max: alert.maxAttempts })}
        </span>
      </span>
      <span className="flex flex-wrap items-center justify-between gap-2 border-t border-line pt-2">
        <button
          type="button"
          onClick={() => onOpen(alert)}
          className="num text-left text-xs text-fg hover:text-accent hover:underline"
          aria-label={t('alerts.open', { time: format.dateTime(alert.receivedAt) })}
        >
          {format.dateTime(alert.receivedAt)}
        </button>
        <RowActions alert={alert} actions={actions} />
      </span>
    </article>
  );
}
