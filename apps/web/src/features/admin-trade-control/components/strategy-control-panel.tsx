import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { timeFrameLabel } from '../../../i18n/time-frame';
import { Card, Stat } from '../../../components/ui/card';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { Badge } from '../../../components/ui/status-badge';
import { type Column } from '../../../components/ui/table';
import { TableOrCards } from '../../../components/ui/table-or-cards';
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

/** A bot as trade control names it: its nickname, its user and the account (the paper venue by its name). */
function BotIdentity({ bot }: { bot: TradeControlBot }) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-col">
      <span className="font-medium text-fg">{bot.nickname}</span>
      <span className="text-xs text-muted">{bot.userEmail}</span>
      <span className="text-xs text-muted">
        {t('tradeControl.columns.account')} {bot.tradingAccount.nickname} ·{' '}
        {bot.tradingAccount.exchange === 'paper' ? t('accounts.paper') : bot.tradingAccount.exchange}
      </span>
    </span>
  );
}

function ActiveBadge({ bot }: { bot: TradeControlBot }) {
  const { t } = useTranslation();
  return bot.isActive ? (
    <Badge tone="success" glyph="✓">
      {t('common.yes')}
    </Badge>
  ) : (
    <Badge glyph="–">{t('common.no')}</Badge>
  );
}

/** The bot's open trade: symbol and side, size at its entry price (in its base and quote), when it opened. */
function BotTrade({ bot }: { bot: TradeControlBot }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const money = useMoney();
  if (!bot.trade) return <span className="text-subtle">{t('tradeControl.noTrade')}</span>;
  const { base, quote } = splitSymbol(bot.trade.symbol);
  return (
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
          quantity: money.quantity(bot.trade.quantity, base),
          price: money.price(bot.trade.entryPrice, quote),
        })}
      </span>
      <span className="num text-xs text-muted">
        {t('tradeControl.columns.opened')} {format.dateTime(bot.trade.openedAt)}
      </span>
    </span>
  );
}

/** The open trade's unrealised PnL in its quote, with the last price it is marked at. */
function BotPnl({ bot }: { bot: TradeControlBot }) {
  const { t } = useTranslation();
  const money = useMoney();
  if (!bot.trade?.unrealisedPnl) return <span className="text-subtle">—</span>;
  const { quote } = splitSymbol(bot.trade.symbol);
  return (
    <span className="inline-flex flex-col items-end gap-0.5">
      <PnlText value={bot.trade.unrealisedPnl} kind="money" currency={quote} />
      <span className="num text-xs text-muted">
        {t('tradeControl.lastPrice', { price: money.price(bot.trade.currentPrice, quote) })}
      </span>
    </span>
  );
}

/** The strategy's bots: a table, and below 640 px a card a bot with its trade, PnL and actions in view. */
function BotsTable({ bots }: { bots: TradeControlBot[] }) {
  const { t } = useTranslation();
  const columns: Column<TradeControlBot>[] = [
    { key: 'bot', header: t('tradeControl.columns.bot'), cell: (bot) => <BotIdentity bot={bot} /> },
    { key: 'active', header: t('tradeControl.columns.active'), cell: (bot) => <ActiveBadge bot={bot} /> },
    {
      key: 'position',
      // Below 1536 px the trade cell says the side: the table fits without scrolling sideways.
      className: 'hidden 2xl:table-cell',
      header: t('tradeControl.columns.position'),
      cell: (bot) => t(`position.${bot.position}`),
    },
    { key: 'trade', header: t('tradeControl.columns.trade'), cell: (bot) => <BotTrade bot={bot} /> },
    { key: 'pnl', header: t('tradeControl.pnlColumn'), numeric: true, cell: (bot) => <BotPnl bot={bot} /> },
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
    <TableOrCards
      caption={t('tradeControl.botsCaption')}
      columns={columns}
      rows={bots}
      rowKey={(bot) => bot.botId}
      loading={false}
      error={undefined}
      onRetry={() => undefined}
      card={(bot) => (
        <div className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3 text-sm">
          <span className="flex items-start justify-between gap-2">
            <BotIdentity bot={bot} />
            <ActiveBadge bot={bot} />
          </span>
          <span className="flex items-start justify-between gap-2">
            <BotTrade bot={bot} />
            <BotPnl bot={bot} />
          </span>
          <BotActions bot={bot} />
        </div>
      )}
      empty={
        <EmptyState
          title={t('tradeControl.noBots.title')}
          description={t('tradeControl.noBots.description')}
        />
      }
    />
  );
}
