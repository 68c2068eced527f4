import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Card, Stat } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/skeleton';
import { ErrorState } from '../../components/ui/states';
import { paths } from '../../config/paths';
import { useBot } from '../../features/bots/api/get-bot';
import { BotTradesTable } from '../../features/bots/components/bot-trades-table';
import { ActiveBadge, PositionBadge } from '../../features/bots/components/position-badge';
import { field, flag, numeric, text } from '../../lib/fields';
import { useFormatters } from '../../lib/use-formatters';

export function BotDetailRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const format = useFormatters();
  const bot = useBot(id);
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
  const data = bot.data;
  return (
    <>
      <div className="mb-3">{back}</div>
      <PageHeader
        title={
          bot.isPending ? (
            <Skeleton className="h-7 w-48" />
          ) : (
            (text(data, 'nickname') ?? t('bots.defaultName'))
          )
        }
        description={text(field(data, 'strategy'), 'nickname', 'strategyKey') ?? t('bots.detail.description')}
        actions={
          data ? (
            <>
              <PositionBadge position={field(data, 'position')} />
              <ActiveBadge active={flag(data, 'isActive', 'is_active')} />
            </>
          ) : null
        }
      />
      <div className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat
          label={t('bots.detail.account')}
          value={text(field(data, 'tradingAccount', 'trading_account'), 'nickname') ?? '—'}
        />
        <Stat
          label={t('bots.detail.allocation')}
          value={format.percent(numeric(data, 'portfolioPercent', 'portfolio_percent'))}
        />
        <Stat
          label={t('bots.detail.leverage')}
          value={format.percent(numeric(data, 'leveragePercent', 'leverage_percent'))}
        />
        <Stat
          label={t('bots.detail.goalProgress')}
          value={format.percent(
            numeric(data, 'goalAccumulatedProfitPercent', 'goal_accumulated_profit_percent'),
          )}
        />
      </div>
      <h2 className="mb-3 text-sm font-semibold text-fg">{t('trades.title')}</h2>
      <BotTradesTable botId={id} />
    </>
  );
}

export { BotDetailRoute as Component };
