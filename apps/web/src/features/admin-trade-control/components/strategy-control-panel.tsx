import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { timeFrameLabel } from '../../../i18n/time-frame';
import { Card, Stat } from '../../../components/ui/card';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { Badge } from '../../../components/ui/status-badge';
import { type Column, Table } from '../../../components/ui/table';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../i18n/translate-message';
import { useFormatters } from '../../../lib/use-formatters';
import {
  type TradeControlBot,
  type TradeControlStatus,
  useStrategyTradeStatus,
} from '../api/get-strategy-trade-status';
import { PnlText } from '../../../components/ui/pnl-text';
import { useMoney } from '../../../lib/money';
import { splitSymbol } from '../../trades/utils/trade-figures';
import {
  TRADE_CONTROL_ACTIONS,
  type TradeControlAction,
  type TradeControlResult,
  useTradeControlAction,
} from '../api/run-trade-control-action';
import { useSetStrategyStatus } from '../api/strategy-scope';
import { ActionOutcome } from './action-outcome';
import { BotActions } from './bot-actions';
import { StrategyActionDialog } from './strategy-action-dialog';
import { StrategyStatusBadge } from './trade-control-labels';

/** One strategy: its figures, its bots one by one, and the three actions (spec §2). */
export function StrategyControlPanel({ strategyId }: { strategyId: string }) {
  const { t } = useTranslation();
  const status = useStrategyTradeStatus(strategyId);

  if (status.isPending) {
    return (
      <div role="status" aria-label={t('common.loading')} className="flex flex-col gap-3">
        <Skeleton className="h-16 rounded-lg" />
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} className="h-[74px] rounded-lg" />
          ))}
        </div>
      </div>
    );
  }
  if (status.isError) {
    return (
      <Card>
        <ErrorState error={status.error} onRetry={() => void status.refetch()} />
      </Card>
    );
  }
  return <StrategyControl status={status.data} />;
}

function StrategyControl({ status }: { status: TradeControlStatus }) {
  const { t } = useTranslation();
  const { strategy, bots } = status;
  const action = useTradeControlAction();
  const [outcome, setOutcome] = useState<{ result: TradeControlResult; at: Date } | null>(null);
  const name = strategy.nickname || strategy.strategyKey;

  const [asking, setAsking] = useState<TradeControlAction | null>(null);
  const statusChange = useSetStrategyStatus();
  const paused = strategy.status === 'paused';

  const run = async (kind: TradeControlAction) => {
    try {
      const result = await action.mutateAsync({ strategyId: strategy.id, action: kind });
      setAsking(null);
      setOutcome({ result, at: new Date() });
      const summary = t('tradeControl.outcome.summary', {
        done: result.done,
        skipped: result.skipped,
        failed: result.failed,
      });
      if (result.failed > 0) toast.warning(t(`tradeControl.actions.${kind}.label`), { description: summary });
      else toast.success(t(`tradeControl.actions.${kind}.label`), { description: summary });
    } catch (error) {
      setAsking(null);
      toast.error(t('tradeControl.failed', { action: t(`tradeControl.actions.${kind}.label`) }), {
        description: errorMessage(t, error),
      });
    }
  };

  /** Pause (no new entries from its alerts for any subscriber) or resume the strategy. */
  const togglePause = async () => {
    const kind = paused ? 'resume' : 'pause';
    const confirmed = await confirmAction({
      title: t(`tradeControl.${kind}.title`, { name }),
      message: t(`tradeControl.${kind}.message`),
      confirmLabel: t(`tradeControl.${kind}.confirm`),
      tone: paused ? 'default' : 'danger',
    });
    if (!confirmed) return;
    try {
      await statusChange.mutateAsync({ strategyId: strategy.id, status: paused ? 'active' : 'paused' });
      toast.success(t(`tradeControl.${kind}.done`, { name }));
    } catch (error) {
      toast.error(t('tradeControl.failed', { action: t(`tradeControl.${kind}.label`) }), {
        description: errorMessage(t, error),
      });
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <Card>
        {/* Not CardHeader: on a phone the three actions go under the title instead of past the edge. */}
        <header className="flex flex-col gap-3 border-b border-line px-4 py-3 lg:flex-row lg:items-start lg:justify-between">
          <div className="min-w-0">
            <h2 className="truncate text-sm font-semibold text-fg">{name}</h2>
            <p className="mt-0.5 text-xs break-words text-muted">
              <span className="font-mono">{strategy.strategyKey}</span> · {strategy.tradeCurrency} ·{' '}
              {timeFrameLabel(t, strategy.timeFrame)} · {strategy.ownerEmail}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {TRADE_CONTROL_ACTIONS.map((kind) => (
              <Button
                key={kind}
                size="sm"
                variant={kind === 'close-positions' ? 'danger' : 'secondary'}
                disabled={bots.length === 0 || (action.isPending && action.variables?.action !== kind)}
                loading={action.isPending && action.variables?.action === kind}
                onClick={() => setAsking(kind)}
              >
                {t(`tradeControl.actions.${kind}.label`)}
              </Button>
            ))}
            {strategy.status === 'retired' ? null : (
              <Button
                size="sm"
                variant="secondary"
                loading={statusChange.isPending}
                onClick={() => void togglePause()}
              >
                {t(paused ? 'tradeControl.resume.label' : 'tradeControl.pause.label')}
              </Button>
            )}
          </div>
        </header>
        <div className="grid grid-cols-2 gap-3 p-4 lg:grid-cols-4">
          <Stat
            label={t('tradeControl.strategyStatus')}
            value={<StrategyStatusBadge status={strategy.status} />}
          />
          <Stat
            label={t('tradeControl.bots')}
            value={strategy.figures.botsTotal}
            hint={t('tradeControl.botsActive', { count: strategy.figures.botsActive })}
          />
          <Stat label={t('tradeControl.activeTrades')} value={strategy.figures.activeTrades} />
          <Stat label={t('tradeControl.openOrders')} value={strategy.figures.openOrders} />
        </div>
      </Card>
      {outcome ? (
        <ActionOutcome
          result={outcome.result}
          at={outcome.at}
          bots={bots}
          onDismiss={() => setOutcome(null)}
        />
      ) : null}
      <BotsTable bots={bots} />
      {asking ? (
        <StrategyActionDialog
          action={asking}
          status={status}
          onConfirm={() => run(asking)}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </div>
  );
}

function BotsTable({ bots }: { bots: TradeControlBot[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const money = useMoney();
  const columns: Column<TradeControlBot>[] = [
    {
      key: 'bot',
      header: t('tradeControl.columns.bot'),
      cell: (bot) => (
        <span className="flex flex-col">
          <span className="font-medium text-fg">{bot.nickname}</span>
          <span className="text-xs text-muted">{bot.userEmail}</span>
          <span className="text-xs text-muted">
            {t('tradeControl.columns.account')} {bot.tradingAccount.nickname} ·{' '}
            {bot.tradingAccount.exchange === 'paper' ? t('accounts.paper') : bot.tradingAccount.exchange}
          </span>
        </span>
      ),
    },
    {
      key: 'active',
      header: t('tradeControl.columns.active'),
      cell: (bot) =>
        bot.isActive ? (
          <Badge tone="success" glyph="✓">
            {t('common.yes')}
          </Badge>
        ) : (
          <Badge glyph="–">{t('common.no')}</Badge>
        ),
    },
    {
      key: 'position',
      // Below 1536 px the trade cell says the side: the table fits without scrolling sideways.
      className: 'hidden 2xl:table-cell',
      header: t('tradeControl.columns.position'),
      cell: (bot) => t(`position.${bot.position}`),
    },
    {
      key: 'trade',
      header: t('tradeControl.columns.trade'),
      cell: (bot) =>
        bot.trade ? (
          <span className="flex flex-col">
            <span>
              {bot.trade.symbol}{' '}
              <span className={bot.trade.side === 'long' ? 'text-gain' : 'text-loss'}>
                <span aria-hidden="true">{bot.trade.side === 'long' ? '▲' : '▼'}</span>{' '}
                {t(`position.${bot.trade.side}`)}
              </span>
            </span>
            <span className="num text-xs text-muted">
              {t('tradeControl.tradeLine', {
                quantity: money.quantity(bot.trade.quantity, splitSymbol(bot.trade.symbol).base),
                price: money.money(bot.trade.entryPrice, splitSymbol(bot.trade.symbol).quote),
              })}
            </span>
            <span className="num text-xs text-muted">
              {t('tradeControl.columns.opened')} {format.dateTime(bot.trade.openedAt)}
            </span>
          </span>
        ) : (
          <span className="text-subtle">{t('tradeControl.noTrade')}</span>
        ),
    },
    {
      key: 'pnl',
      header: t('tradeControl.pnlColumn'),
      numeric: true,
      cell: (bot) =>
        bot.trade?.unrealisedPnl ? (
          <span className="inline-flex flex-col items-end gap-0.5">
            <PnlText
              value={bot.trade.unrealisedPnl}
              kind="money"
              currency={splitSymbol(bot.trade.symbol).quote}
            />
            <span className="num text-xs text-muted">
              {t('tradeControl.lastPrice', {
                price: money.money(bot.trade.currentPrice, splitSymbol(bot.trade.symbol).quote),
              })}
            </span>
          </span>
        ) : (
          <span className="text-subtle">—</span>
        ),
    },
    {
      key: 'openOrders',
      // Below 1536 px the trade cell says the side: the table fits without scrolling sideways.
      className: 'hidden 2xl:table-cell',
      header: t('tradeControl.columns.openOrders'),
      numeric: true,
      cell: (bot) => bot.openOrders,
    },
    {
      key: 'actions',
      header: t('tradeControl.actionsColumn'),
      cell: (bot) => <BotActions bot={bot} />,
    },
  ];
  return (
    <Table
      caption={t('tradeControl.botsCaption')}
      columns={columns}
      rows={bots}
      rowKey={(bot) => bot.botId}
      empty={
        <EmptyState
          title={t('tradeControl.noBots.title')}
          description={t('tradeControl.noBots.description')}
        />
      }
    />
  );
}
