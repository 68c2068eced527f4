import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { timeFrameLabel } from '../../../i18n/time-frame';
import { Card } from '../../../components/ui/card';
import { confirmAction } from '../../../components/ui/confirm-dialog';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { ErrorState } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { Toggle } from '../../../components/ui/toggle';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../i18n/translate-message';
import { useFormatters } from '../../../lib/use-formatters';
import type { Bot } from '@kairos/contract';
import { useDeleteBot } from '../api/delete-bot';
import { useBot } from '../api/get-bot';
import { useStartBot } from '../api/start-bot';
import { useToggleBotActive } from '../api/toggle-bot-active';
import type { AccountOption } from '../utils/bot-rules';
import { useAllocationText, useLeverageText } from './allocation-text';
import { BotTradesTable } from './bot-trades-table';
import { EditBotDialog } from './edit-bot-dialog';
import { GoalProgress } from './goal-progress';
import { PositionBadge } from './position-badge';
import { StopBotDialog } from './stop-bot-dialog';
import { formatMoney } from '../../../lib/money';

/** Spec §2 BotDetail: position, switches, goal progress and the bot's trades. */
export function BotDetail({
  botId,
  marketTypeOf,
}: {
  botId: string;
  /** The market type of an account, from the accounts the screen loaded (leverage is futures-only). */
  marketTypeOf: (accountId: string) => AccountOption['marketType'] | undefined;
}) {
  const { t } = useTranslation();
  const remove = useDeleteBot();
  // Once the bot is being deleted this screen stops asking about it: it is on its way out.
  const leaving = remove.isPending || remove.isSuccess;
  const bot = useBot(botId, { enabled: !leaving });
  const back = (
    <Link to={paths.bots} className="text-sm text-muted hover:text-fg">
      ← {t('bots.back')}
    </Link>
  );

  if (bot.isError) {
    return (
      <>
        <div className="mb-3">{back}</div>
        <PageHeader title={t('bots.defaultName')} />
        <Card>
          <ErrorState error={bot.error} onRetry={() => void bot.refetch()} />
        </Card>
      </>
    );
  }

  return (
    <>
      <div className="mb-3">{back}</div>
      {bot.data ? (
        <BotHeader bot={bot.data} marketType={marketTypeOf(bot.data.tradingAccount.id)} remove={remove} />
      ) : (
        <PageHeader title={<Skeleton className="h-7 w-48" />} description={t('bots.detail.description')} />
      )}
      <BotFigures bot={bot.data} />
      <h2 className="mb-3 text-sm font-semibold text-fg">{t('trades.title')}</h2>
      <BotTradesTable botId={botId} enabled={!leaving} />
    </>
  );
}

function BotHeader({
  bot,
  marketType,
  remove,
}: {
  bot: Bot;
  marketType: AccountOption['marketType'] | undefined;
  remove: ReturnType<typeof useDeleteBot>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toggle = useToggleBotActive();
  const start = useStartBot();
  const [dialog, setDialog] = useState<'edit' | 'stop' | null>(null);
  const holding = bot.position !== 'out' || bot.isTrading;

  const startBot = () =>
    start.mutate(bot.id, {
      onSuccess: (started) => toast.success(t('bots.start.started', { name: started.nickname })),
      onError: (error) =>
        toast.error(t('bots.start.failed', { name: bot.nickname }), { description: errorMessage(t, error) }),
    });

  const deleteBot = async () => {
    const confirmed = await confirmAction({
      title: t('bots.delete.title', { name: bot.nickname }),
      message: holding ? t('bots.delete.holding') : t('bots.delete.message'),
      confirmLabel: t('bots.delete.confirm'),
      tone: 'danger',
    });
    if (!confirmed) return;
    remove.mutate(bot.id, {
      onSuccess: () => {
        toast.success(t('bots.delete.deleted', { name: bot.nickname }));
        void navigate(paths.bots);
      },
      onError: (error) =>
        toast.error(t('bots.delete.failed', { name: bot.nickname }), { description: errorMessage(t, error) }),
    });
  };

  const pair = [bot.tradeCurrency, bot.stableCoin].filter(Boolean).join('/');
  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            {bot.nickname}
            <PositionBadge position={bot.position} />
            {bot.tradingAccount.sandbox ? <TestnetBadge /> : null}
          </span>
        }
        description={[
          bot.strategy.nickname,
          pair,
          bot.strategy.timeFrame && timeFrameLabel(t, bot.strategy.timeFrame),
        ]
          .filter(Boolean)
          .join(' · ')}
        actions={
          <>
            <div className="mr-2 rounded-md border border-line bg-surface px-3 py-1.5">
              <Toggle
                checked={bot.isActive}
                onChange={(isActive) => toggle.mutate({ id: bot.id, isActive })}
                label={t('bots.toggle.short')}
              />
            </div>
            {bot.isActive ? null : (
              <Button onClick={startBot} loading={start.isPending}>
                {t('bots.start.action')}
              </Button>
            )}
            {bot.isActive || holding ? (
              <Button variant="secondary" onClick={() => setDialog('stop')}>
                {t('bots.stop.action')}
              </Button>
            ) : null}
            <Button variant="secondary" onClick={() => setDialog('edit')}>
              {t('bots.edit.action')}
            </Button>
            <Button
              variant="ghost"
              className="hover:text-loss"
              onClick={() => void deleteBot()}
              loading={remove.isPending}
            >
              {t('bots.delete.action')}
            </Button>
          </>
        }
      />
      {dialog === 'edit' ? (
        <EditBotDialog bot={bot} marketType={marketType} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'stop' ? <StopBotDialog bot={bot} onClose={() => setDialog(null)} /> : null}
    </>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Card className="px-4 py-3">
      <p className="text-xs text-muted">{label}</p>
      <div className="num mt-1 text-base font-semibold text-fg">{children}</div>
    </Card>
  );
}

function BotFigures({ bot }: { bot: Bot | undefined }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const allocationText = useAllocationText();
  const leverageText = useLeverageText();
  const loading = <Skeleton className="h-5 w-24" />;
  return (
    <div className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Figure label={t('bots.detail.account')}>
        {bot ? (
          <span className="flex flex-col">
            <span className="flex min-w-0 items-center gap-1.5">
              <span className="truncate">{bot.tradingAccount.nickname || '—'}</span>
              {bot.tradingAccount.sandbox ? <TestnetBadge /> : null}
            </span>
            <span className="text-xs font-normal text-muted">
              {formatMoney(bot.tradingAccount.usdtBalance, 'USDT', { locale: format.locale })}
            </span>
          </span>
        ) : (
          loading
        )}
      </Figure>
      <Figure label={t('bots.detail.allocation')}>
        {bot ? allocationText({ ...bot, leveragePercent: '100' }) : loading}
      </Figure>
      <Figure label={t('bots.detail.leverage')}>
        {bot ? (
          <span className="flex flex-col">
            <span>{leverageText(bot.leveragePercent)}</span>
            <span className="text-xs font-normal text-muted">{format.percent(bot.leveragePercent)}</span>
          </span>
        ) : (
          loading
        )}
      </Figure>
      <Figure label={t('bots.detail.goalProgress')}>{bot ? <GoalProgress bot={bot} /> : loading}</Figure>
    </div>
  );
}
