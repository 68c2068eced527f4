import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/status-badge';
import { EmptyState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import { type AdminStrategy, useAdminStrategies } from '../api/get-admin-strategies';
import { StrategyControlPanel } from './strategy-control-panel';
import { StrategyStatusBadge } from './trade-control-labels';
import { useSearchWriter } from '../../../lib/use-search-writer';

const SELECTED = 'strategy';

/** AdminTradeControl (spec §2): every strategy with its figures; the one picked (in the URL) below. */
export function TradeControl() {
  const { t } = useTranslation();
  const strategies = useAdminStrategies();
  const [search, setSearch] = useSearchWriter();
  const list = strategies.data ?? [];
  const picked = search.get(SELECTED);
  const selected = list.find((strategy) => strategy.id === picked) ?? list[0];
  const select = (strategy: AdminStrategy) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(SELECTED, strategy.id);
        return next;
      },
      { replace: true },
    );

  const columns: Column<AdminStrategy>[] = [
    {
      key: 'strategy',
      header: t('tradeControl.strategy'),
      cell: (strategy) => {
        const isSelected = strategy.id === selected?.id;
        return (
          <button
            type="button"
            aria-current={isSelected ? 'true' : undefined}
            onClick={(event) => {
              event.stopPropagation();
              select(strategy);
            }}
            className="flex items-center gap-2 text-left"
          >
            <span
              aria-hidden="true"
              className={cn('size-1.5 shrink-0 rounded-full', isSelected ? 'bg-accent' : 'bg-transparent')}
            />
            <span className="flex flex-col">
              <span className={cn('font-medium', isSelected ? 'text-accent' : 'text-fg')}>
                {strategy.nickname}
              </span>
              <span className="font-mono text-xs text-muted">{strategy.strategyKey}</span>
            </span>
          </button>
        );
      },
    },
    {
      key: 'owner',
      header: t('tradeControl.columns.owner'),
      cell: (strategy) => (
        <span className="inline-flex items-center gap-2">
          {strategy.ownerEmail}
          {strategy.isPublic ? <Badge tone="info">{t('tradeControl.public')}</Badge> : null}
        </span>
      ),
    },
    {
      key: 'status',
      header: t('tradeControl.strategyStatus'),
      cell: (strategy) => <StrategyStatusBadge status={strategy.status} />,
    },
    {
      key: 'bots',
      header: t('tradeControl.bots'),
      numeric: true,
      cell: (strategy) =>
        t('tradeControl.botsOf', { active: strategy.figures.botsActive, total: strategy.figures.botsTotal }),
    },
    {
      key: 'activeTrades',
      header: t('tradeControl.activeTrades'),
      numeric: true,
      cell: (strategy) => strategy.figures.activeTrades,
    },
    {
      key: 'openOrders',
      header: t('tradeControl.openOrders'),
      numeric: true,
      cell: (strategy) => strategy.figures.openOrders,
    },
  ];

  return (
    <div className="flex flex-col gap-5">
      <Table
        caption={t('tradeControl.strategiesCaption')}
        columns={columns}
        rows={strategies.data}
        rowKey={(strategy) => strategy.id}
        onRowClick={select}
        loading={strategies.isPending}
        error={strategies.isError ? strategies.error : undefined}
        onRetry={() => void strategies.refetch()}
        maxHeight="40dvh"
        empty={
          <EmptyState
            title={t('tradeControl.empty.title')}
            description={t('tradeControl.empty.description')}
          />
        }
      />
      {selected ? <StrategyControlPanel key={selected.id} strategyId={selected.id} /> : null}
    </div>
  );
}
