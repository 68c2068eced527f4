import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { RefreshIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { type Column, Table } from '../../../components/ui/table';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { Toggle } from '../../../components/ui/toggle';
import { paths } from '../../../config/paths';
import { translateMessage } from '../../../i18n/translate-message';
import type { Bot } from '@kairos/contract';
import { BOTS_LOAD_FAILED, useBots } from '../api/get-bots';
import { useToggleBotActive } from '../api/toggle-bot-active';
import { useAllocationText } from './allocation-text';
import { GoalProgress } from './goal-progress';
import { PositionBadge } from './position-badge';

const stopRowClick = (event: { stopPropagation: () => void }) => event.stopPropagation();

/**
 * Spec §2 Bots: every bot with its switch, strategy, account, allocation, goal and position.
 * `empty` is the next step the screen offers when there are none (create or connect).
 */
export function BotsList({ empty, toolbar }: { empty: ReactNode; toolbar?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const bots = useBots();
  const toggle = useToggleBotActive();
  const allocationText = useAllocationText();

  const columns: Column<Bot>[] = [
    {
      key: 'active',
      header: t('bots.columns.active'),
      className: 'w-px',
      cell: (bot) => (
        <span onClick={stopRowClick} className="inline-flex">
          <Toggle
            checked={bot.isActive}
            onChange={(isActive) => toggle.mutate({ id: bot.id, isActive })}
            label={t('bots.toggle.label', { name: bot.nickname })}
            hideLabel
          />
        </span>
      ),
    },
    {
      key: 'nickname',
      header: t('bots.columns.name'),
      cell: (bot) => (
        <Link to={paths.bot(bot.id)} onClick={stopRowClick} className="font-medium text-fg hover:text-accent">
          {bot.nickname}
        </Link>
      ),
    },
    {
      key: 'strategy',
      header: t('bots.columns.strategy'),
      cell: (bot) => (
        <span className="flex flex-col">
          <span>{bot.strategy.nickname || '—'}</span>
          {bot.strategy.timeFrame ? (
            <span className="text-[11px] text-subtle">
              {bot.strategy.strategyKey} · {bot.strategy.timeFrame}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'account',
      header: t('bots.columns.account'),
      cell: (bot) => (
        <span className="inline-flex items-center gap-1.5">
          {bot.tradingAccount.nickname || bot.tradingAccount.exchange || '—'}
          {bot.tradingAccount.sandbox ? <TestnetBadge /> : null}
        </span>
      ),
    },
    {
      key: 'pair',
      header: t('bots.columns.pair'),
      cell: (bot) => [bot.tradeCurrency, bot.stableCoin].filter(Boolean).join('/') || '—',
    },
    {
      key: 'allocation',
      header: t('bots.columns.allocation'),
      numeric: true,
      cell: (bot) => allocationText(bot),
    },
    {
      key: 'goal',
      header: t('bots.columns.monthlyGoal'),
      cell: (bot) => <GoalProgress bot={bot} compact />,
    },
    {
      key: 'position',
      header: t('bots.columns.position'),
      cell: (bot) => <PositionBadge position={bot.position} />,
    },
  ];

  const count = bots.data?.length ?? 0;
  const active = bots.data?.filter((bot) => bot.isActive).length ?? 0;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="num text-sm text-muted" aria-live="polite">
          {bots.data ? t('bots.summary', { count, active }) : '\u00a0'}
        </p>
        <div className="flex items-center gap-2">
          <Button
            variant="ghost"
            size="sm"
            icon={<RefreshIcon size={14} className={bots.isFetching ? 'animate-spin' : undefined} />}
            onClick={() => void bots.refetch()}
            disabled={bots.isFetching}
          >
            {t('common.refresh')}
          </Button>
          {toolbar}
        </div>
      </div>
      {bots.isError ? (
        <Card>
          <ErrorState
            title={translateMessage(t, BOTS_LOAD_FAILED)}
            // The catalogue's sentence is the title; the body says more only when the server did.
            error={bots.error.message === BOTS_LOAD_FAILED ? undefined : bots.error}
            onRetry={() => void bots.refetch()}
          />
        </Card>
      ) : (
        <Table
          caption={t('bots.title')}
          columns={columns}
          rows={bots.data}
          rowKey={(bot) => bot.id}
          loading={bots.isPending}
          onRowClick={(bot) => void navigate(paths.bot(bot.id))}
          empty={empty}
        />
      )}
    </div>
  );
}

export function BotsEmptyState({ actions }: { actions: ReactNode }) {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('bots.empty.title')} description={t('bots.empty.description')} actions={actions} />
  );
}
