import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/status-badge';
import { EmptyState, queryState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
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
      <TableOrCards
        caption={t('tradeControl.strategiesCaption')}
        columns={columns}
        rows={list}
        rowKey={(strategy) => strategy.id}
        onRowClick={select}
        {...queryState(strategies)}
        maxHeight="40dvh"
        // Below 640 px a card a strategy (issue 21: the six columns scrolled sideways on a phone).
        card={(strategy) => (
          <StrategyCard strategy={strategy} selected={strategy.id === selected?.id} onSelect={select} />
        )}
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

/** A strategy on a phone: its name and key, status, owner and figures; the whole card picks it. */
function StrategyCard({
  strategy,
  selected,
  onSelect,
}: {
  strategy: AdminStrategy;
  selected: boolean;
  onSelect: (strategy: AdminStrategy) => void;
}) {
  const { t } = useTranslation();
  const figures: [string, ReactNode][] = [
    [
      t('tradeControl.bots'),
      t('tradeControl.botsOf', { active: strategy.figures.botsActive, total: strategy.figures.botsTotal }),
    ],
    [t('tradeControl.activeTrades'), strategy.figures.activeTrades],
    [t('tradeControl.openOrders'), strategy.figures.openOrders],
  ];
  return (
    <button
      type="button"
      aria-current={selected ? 'true' : undefined}
      onClick={() => onSelect(strategy)}
      className={cn(
        'flex w-full flex-col gap-2 rounded-lg border bg-surface p-3 text-left text-sm hover:border-line-strong',
        selected ? 'border-accent' : 'border-line',
      )}
    >
      <span className="flex items-start justify-between gap-2">
        <span className="flex min-w-0 flex-col">
          <span className={cn('font-medium break-words', selected ? 'text-accent' : 'text-fg')}>
            {strategy.nickname}
          </span>
          <span className="font-mono text-xs break-all text-muted">{strategy.strategyKey}</span>
        </span>
        <StrategyStatusBadge status={strategy.status} />
      </span>
      <span className="flex flex-wrap items-center gap-2 text-xs text-muted">
        <span className="min-w-0 break-all">{strategy.ownerEmail}</span>
        {strategy.isPublic ? <Badge tone="info">{t('tradeControl.public')}</Badge> : null}
      </span>
      <span className="grid grid-cols-3 gap-2">
        {figures.map(([label, value]) => (
          <span key={label} className="flex flex-col">
            <span className="text-xs text-muted">{label}</span>
            <span className="num text-fg">{value}</span>
          </span>
        ))}
      </span>
    </button>
  );
}
