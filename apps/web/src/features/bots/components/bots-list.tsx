import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { timeFrameLabel } from '../../../i18n/time-frame';
import { Card } from '../../../components/ui/card';
import { RefreshIcon } from '../../../components/ui/icons';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { type Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { Toggle } from '../../../components/ui/toggle';
import { paths } from '../../../config/paths';
import { translateMessage } from '../../../i18n/translate-message';
import type { Bot } from '@kairos/contract';
import { BOTS_LOAD_FAILED, useBots } from '../api/get-bots';
import { useToggleBotActive } from '../api/toggle-bot-active';
import { useAllocationText } from './allocation-text';
import { GoalProgress } from './goal-progress';
import { ActiveBadge, PositionBadge } from './position-badge';

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
              {bot.strategy.strategyKey} · {timeFrameLabel(t, bot.strategy.timeFrame)}
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
          {bots.data
            ? t('bots.summary', { count, active: t('bots.activeCount', { count: active }) })
            : '\u00a0'}
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
        <TableOrCards
          caption={t('bots.title')}
          columns={columns}
          rows={bots.data ?? []}
          rowKey={(bot) => bot.id}
          // Its error is shown above, with the catalogue's title.
          loading={bots.isPending}
          onRowClick={(bot) => void navigate(paths.bot(bot.id))}
          empty={empty}
          card={(bot) => (
            <BotCard
              bot={bot}
              allocation={allocationText(bot)}
              onToggle={(isActive) => toggle.mutate({ id: bot.id, isActive })}
            />
          )}
        />
      )}
    </div>
  );
}

/**
 * A bot on a phone (< 640 px): name, position, size and goal, whether it is live, with its switch at the card's
 * right, away from the screen's edge where a sideways swipe starts (issue 21).
 */
function BotCard({
  bot,
  allocation,
  onToggle,
}: {
  bot: Bot;
  allocation: ReactNode;
  onToggle: (isActive: boolean) => void;
}) {
  const { t } = useTranslation();
  const pair = [bot.tradeCurrency, bot.stableCoin].filter(Boolean).join('/');
  return (
    <article
      aria-label={bot.nickname}
      className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3 text-sm"
    >
      <span className="flex items-center justify-between gap-2">
        <Link to={paths.bot(bot.id)} className="min-w-0 truncate font-medium text-fg hover:text-accent">
          {bot.nickname}
        </Link>
        <PositionBadge position={bot.position} />
      </span>
      <span className="flex flex-wrap items-center gap-x-1.5 text-xs text-muted">
        <span>{bot.strategy.nickname || '—'}</span>
        <span aria-hidden="true">·</span>
        <span>{pair || '—'}</span>
        <span aria-hidden="true">·</span>
        <span className="inline-flex items-center gap-1">
          {bot.tradingAccount.nickname || bot.tradingAccount.exchange || '—'}
          {bot.tradingAccount.sandbox ? <TestnetBadge /> : null}
        </span>
      </span>
      <span className="flex items-end justify-between gap-3">
        <span className="flex flex-col">
          <span className="text-xs text-muted">{t('bots.columns.allocation')}</span>
          <span className="num text-fg">{allocation}</span>
        </span>
        <span className="flex min-w-0 flex-col items-end">
          <span className="text-xs text-muted">{t('bots.columns.monthlyGoal')}</span>
          <GoalProgress bot={bot} compact />
        </span>
      </span>
      <span className="flex items-center justify-between gap-3 border-t border-line pt-2">
        <ActiveBadge active={bot.isActive} />
        <span className="pr-1">
          <Toggle
            checked={bot.isActive}
            onChange={onToggle}
            label={t('bots.toggle.label', { name: bot.nickname })}
            hideLabel
          />
        </span>
      </span>
    </article>
  );
}

export function BotsEmptyState({ actions }: { actions: ReactNode }) {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('bots.empty.title')} description={t('bots.empty.description')} actions={actions} />
  );
}
