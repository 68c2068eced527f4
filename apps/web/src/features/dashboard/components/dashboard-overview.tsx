import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { Card, Stat } from '../../../components/ui/card';
import { TimeSeriesChart } from '../../../components/ui/chart';
import { ChartFrame } from '../../../components/ui/chart-frame';
import { BotIcon, LinkIcon } from '../../../components/ui/icons';
import { PnlText } from '../../../components/ui/pnl-text';
import { Skeleton } from '../../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { type Row, numeric, text } from '../../../lib/fields';
import { useFormatters } from '../../../lib/use-formatters';
import { type Dashboard, isDashboardEmpty, useDashboard } from '../api/get-dashboard';

function toPoints(rows: Row[], ...valueNames: string[]) {
  return rows
    .map((row) => ({
      time: (text(row, 'date', 'day', 'time') ?? '').slice(0, 10),
      value: Number(numeric(row, ...valueNames)),
    }))
    .filter((point) => point.time !== '' && Number.isFinite(point.value));
}

/** Horizontal bars for "how much where": light enough to need no chart library. */
function BarList({
  rows,
  labelNames,
  valueNames,
}: {
  rows: Row[];
  labelNames: string[];
  valueNames: string[];
}) {
  const format = useFormatters();
  const items = rows.map((row) => ({
    label: text(row, ...labelNames) ?? '—',
    value: Number(numeric(row, ...valueNames) ?? 0),
  }));
  const max = Math.max(1, ...items.map((item) => Math.abs(item.value)));
  return (
    <ul className="flex h-full flex-col gap-2.5 overflow-y-auto px-2 pt-1">
      {items.map((item) => (
        <li key={item.label} className="text-xs">
          <div className="flex justify-between gap-2">
            <span className="truncate text-muted">{item.label}</span>
            <span className="num text-fg">{format.currencyValue(item.value)}</span>
          </div>
          <div className="mt-1 h-1.5 rounded-full bg-surface-3">
            <div
              className="h-full rounded-full bg-accent"
              style={{ width: `${(Math.abs(item.value) / max) * 100}%` }}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function DashboardEmptyState() {
  const { t } = useTranslation();
  return (
    <Card>
      <EmptyState
        title={t('dashboard.empty.title')}
        description={t('dashboard.empty.description')}
        actions={
          <>
            <Link to={paths.accounts} className={buttonClasses({ className: 'gap-2' })}>
              <LinkIcon size={14} />
              {t('dashboard.empty.connectAccount')}
            </Link>
            <Link to={paths.bots} className={buttonClasses({ variant: 'secondary', className: 'gap-2' })}>
              <BotIcon size={14} />
              {t('dashboard.empty.createBot')}
            </Link>
          </>
        }
        className="py-16"
      />
    </Card>
  );
}

function DashboardContent({ dashboard }: { dashboard: Dashboard }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { metrics } = dashboard;
  const equity = toPoints(dashboard.equityCurve, 'equity', 'value', 'balance');
  const daily = toPoints(dashboard.dailyPnl, 'pnl', 'value');
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label={t('dashboard.metrics.netPnl')} value={<PnlText value={numeric(metrics, 'netPnl')} />} />
        <Stat
          label={t('dashboard.metrics.pnlPercent')}
          value={<PnlText value={numeric(metrics, 'pnlPercent')} kind="percent" />}
        />
        <Stat label={t('dashboard.metrics.winRate')} value={format.percent(numeric(metrics, 'winRate'))} />
        <Stat label={t('dashboard.metrics.closedTrades')} value={text(metrics, 'closedTrades') ?? '0'} />
      </div>
      <div className="grid gap-4 xl:grid-cols-2">
        <ChartFrame
          title={t('dashboard.charts.equityCurve')}
          units={format.currency}
          empty={equity.length === 0}
        >
          <TimeSeriesChart
            data={equity}
            formatValue={(value) => format.currencyValue(value)}
            label={t('dashboard.charts.equityCurve')}
          />
        </ChartFrame>
        <ChartFrame title={t('dashboard.charts.dailyPnl')} units={format.currency} empty={daily.length === 0}>
          <TimeSeriesChart
            data={daily}
            variant="histogram"
            formatValue={(value) => format.pnl(value)}
            label={t('dashboard.charts.dailyPnl')}
          />
        </ChartFrame>
        <ChartFrame
          title={t('dashboard.charts.balanceByAccount')}
          units={format.currency}
          empty={dashboard.balanceByAccount.length === 0}
        >
          <BarList
            rows={dashboard.balanceByAccount}
            labelNames={['nickname', 'name', 'accountId']}
            valueNames={['balance', 'value', 'usdtBalance']}
          />
        </ChartFrame>
        <ChartFrame
          title={t('dashboard.charts.capitalByBot')}
          units={format.currency}
          empty={dashboard.capitalByBot.length === 0}
        >
          <BarList
            rows={dashboard.capitalByBot}
            labelNames={['nickname', 'name', 'botId']}
            valueNames={['capital', 'value', 'amount']}
          />
        </ChartFrame>
      </div>
    </div>
  );
}

function DashboardSkeleton() {
  return (
    <div className="flex flex-col gap-4" aria-hidden="true">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-[74px] rounded-lg" />
        ))}
      </div>
      <div className="grid gap-4 xl:grid-cols-2">
        <Skeleton className="h-72 rounded-lg" />
        <Skeleton className="h-72 rounded-lg" />
      </div>
    </div>
  );
}

export function DashboardOverview() {
  const { t } = useTranslation();
  const query = useDashboard();
  if (query.isPending) {
    return (
      <div role="status" aria-label={t('common.loading')}>
        <DashboardSkeleton />
      </div>
    );
  }
  if (query.isError) {
    return (
      <Card>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  if (isDashboardEmpty(query.data)) return <DashboardEmptyState />;
  return <DashboardContent dashboard={query.data} />;
}
