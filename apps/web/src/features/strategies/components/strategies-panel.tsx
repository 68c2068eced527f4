import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { timeFrameLabel } from '../../../i18n/time-frame';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { PlusIcon } from '../../../components/ui/icons';
import { EmptyState, queryState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../i18n/translate-message';
import { useFormatters } from '../../../lib/use-formatters';
import { useDeleteStrategy } from '../api/delete-strategy';
import { type Strategy, useStrategies } from '../api/get-strategies';
import { StrategyFormDialog } from './strategy-form-dialog';
import { StrategyStatusBadge, StrategyVisibilityBadge } from './strategy-status-badge';
import { StrategyWebhookDialog } from './strategy-webhook-dialog';

type Open = { kind: 'create' } | { kind: 'edit' | 'webhook'; strategy: Strategy } | null;

/** The strategies a user may attach bots to: the admins' public ones and their own. */
export function StrategiesPanel() {
  const { t } = useTranslation();
  const format = useFormatters();
  const strategies = useStrategies();
  const remove = useDeleteStrategy();
  const [open, setOpen] = useState<Open>(null);
  // The dialogs show the freshest copy (a rotated secret, say), not the row clicked earlier.
  const current = (strategy: Strategy) => strategies.data?.find((s) => s.id === strategy.id) ?? strategy;

  const deleteStrategy = async (strategy: Strategy) => {
    const confirmed = await confirmAction({
      title: t('strategies.delete.title', { name: strategy.nickname }),
      message: t('strategies.delete.message'),
      confirmLabel: t('strategies.delete.confirm'),
      tone: 'danger',
    });
    if (!confirmed) return;
    remove.mutate(strategy.id, {
      onSuccess: () => toast.success(t('strategies.delete.deleted', { name: strategy.nickname })),
      onError: (error) =>
        toast.error(t('strategies.delete.failed', { name: strategy.nickname }), {
          description: errorMessage(t, error),
        }),
    });
  };

  const columns: Column<Strategy>[] = [
    {
      key: 'nickname',
      header: t('strategies.columns.name'),
      cell: (strategy) => (
        <span className="flex flex-col">
          <span className="font-medium">{strategy.nickname}</span>
          <span className="font-mono text-[11px] text-subtle">{strategy.strategyKey}</span>
        </span>
      ),
    },
    {
      key: 'pair',
      header: t('strategies.columns.pair'),
      cell: (strategy) => `${strategy.tradeCurrency}/${strategy.stableCoin}`,
    },
    {
      key: 'timeFrame',
      // "Unité de temps" over a "4h": the header may take two lines so the row fits at 1023 px.
      header: <span className="whitespace-normal">{t('strategies.columns.timeFrame')}</span>,
      cell: (strategy) => timeFrameLabel(t, strategy.timeFrame),
    },
    {
      key: 'takeProfits',
      header: t('strategies.columns.takeProfits'),
      cell: (strategy) =>
        strategy.takeProfits.length === 0 ? (
          <span className="text-subtle">—</span>
        ) : (
          <span className="num flex flex-wrap gap-x-3 gap-y-0.5 text-xs">
            {strategy.takeProfits.map((tp) => (
              <span key={tp.role} title={t('strategies.tpTitle', { size: format.percent(tp.sizePercent) })}>
                <span className="text-muted">{tp.role.toUpperCase()}</span>{' '}
                <span className="text-gain">+{format.percent(tp.percent)}</span>{' '}
                <span className="text-subtle">×{format.percent(tp.sizePercent)}</span>
              </span>
            ))}
          </span>
        ),
    },
    {
      key: 'stopLoss',
      header: t('strategies.columns.stopLoss'),
      numeric: true,
      cell: (strategy) =>
        strategy.stopLossPercent ? (
          <span className="text-loss">−{format.percent(strategy.stopLossPercent)}</span>
        ) : (
          <span className="text-subtle">{t('strategies.noStopLoss')}</span>
        ),
    },
    {
      key: 'status',
      header: t('strategies.columns.status'),
      cell: (strategy) => (
        <span className="flex flex-wrap gap-1">
          <StrategyStatusBadge status={strategy.status} />
          <StrategyVisibilityBadge strategy={strategy} />
        </span>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('strategies.columns.actions')}</span>,
      className: 'w-px text-right',
      cell: (strategy) =>
        strategy.isOwner ? (
          <span className="flex justify-end gap-1">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => setOpen({ kind: 'webhook', strategy })}
              aria-label={t('strategies.webhook.open', { name: strategy.nickname })}
            >
              {t('strategies.webhook.short')}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setOpen({ kind: 'edit', strategy })}
              aria-label={t('strategies.form.edit', { name: strategy.nickname })}
            >
              {t('strategies.form.editShort')}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="hover:text-loss"
              onClick={() => void deleteStrategy(strategy)}
              aria-label={t('strategies.delete.action', { name: strategy.nickname })}
            >
              {t('strategies.delete.short')}
            </Button>
          </span>
        ) : (
          <span className="text-xs text-subtle">{t('strategies.managedByAdmin')}</span>
        ),
    },
  ];

  return (
    <div className="flex flex-col gap-3">
      {/* On a phone the button goes under the text (it squeezed it to a few words a line at 390 px). */}
      <div className="flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
        <p className="max-w-3xl text-sm text-muted">{t('strategies.description')}</p>
        <Button onClick={() => setOpen({ kind: 'create' })} icon={<PlusIcon />}>
          {t('strategies.form.open')}
        </Button>
      </div>
      <TableOrCards
        caption={t('strategies.title')}
        columns={columns}
        rows={strategies.data ?? []}
        rowKey={(strategy) => strategy.id}
        {...queryState(strategies)}
        // Below 640 px a card a strategy (issue 21: the seven columns scrolled sideways on a phone).
        card={(strategy, cell) => (
          <article
            aria-label={strategy.nickname}
            className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3 text-sm"
          >
            <span className="flex items-start justify-between gap-2">
              <span className="min-w-0 break-all">{cell('nickname')}</span>
              {cell('status')}
            </span>
            <span className="text-muted">
              {cell('pair')} · {cell('timeFrame')}
            </span>
            <span className="flex items-start justify-between gap-3">
              <span className="flex flex-col gap-0.5">
                <span className="text-xs text-muted">{t('strategies.columns.takeProfits')}</span>
                {cell('takeProfits')}
              </span>
              <span className="flex flex-col items-end gap-0.5">
                <span className="text-xs text-muted">{t('strategies.columns.stopLoss')}</span>
                <span className="num">{cell('stopLoss')}</span>
              </span>
            </span>
            <span className="flex justify-end">{cell('actions')}</span>
          </article>
        )}
        empty={
          <EmptyState
            title={t('strategies.empty.title')}
            description={t('strategies.empty.description')}
            actions={
              <Button onClick={() => setOpen({ kind: 'create' })} icon={<PlusIcon />}>
                {t('strategies.form.open')}
              </Button>
            }
          />
        }
      />
      {open?.kind === 'create' ? (
        <StrategyFormDialog
          onClose={() => setOpen(null)}
          onSaved={(strategy) => setOpen({ kind: 'webhook', strategy })}
        />
      ) : null}
      {open?.kind === 'edit' ? (
        <StrategyFormDialog
          key={open.strategy.id}
          strategy={current(open.strategy)}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'webhook' ? (
        <StrategyWebhookDialog strategy={current(open.strategy)} onClose={() => setOpen(null)} />
      ) : null}
    </div>
  );
}
