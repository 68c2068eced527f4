import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { BarList } from '../../../components/ui/bar-list';
import { type TimeGap, TimeSeriesChart, type TimePoint } from '../../../components/ui/chart';
import { ChartFrame } from '../../../components/ui/chart-frame';
import { DonutChart } from '../../../components/ui/donut-chart';
import { TestnetBadge } from '../../../components/ui/testnet-badge';
import { formatPercent } from '../../../lib/format';
import { useFormatters } from '../../../lib/use-formatters';
import type { Dashboard } from '../api/get-dashboard';
import { daysBetween } from '../utils/dashboard-filters';
import { formatDay } from '../../../lib/format-time';

/** Beyond this many days the daily chart shows trading days only (no empty slots). */
const MAX_FILLED_DAYS = 400;

export const DashboardCharts = memo(function DashboardCharts({
  dashboard,
  range,
  units,
  topN,
}: {
  dashboard: Dashboard;
  range: { from: string; to: string };
  /** The amounts' currency as the axis unit ("USD", or "≈ EUR" when converted). */
  units: string;
  topN: number;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { locale } = format;
  const code = dashboard.currency?.currency ?? format.currency;
  const money = (value: number | string) => format.currencyValue(value, code);
  const day = (time: string | number) => formatDay(String(time), locale);

  const equity = dashboard.equityCurve;
  const equityPoints = useMemo<TimePoint[]>(
    () => equity.points.map((point) => ({ time: point.date, value: Number(point.value) })),
    [equity],
  );
  const cumulative = equity.kind === 'cumulativePnl';

  const daily = dashboard.dailyPnl;
  const dailyPoints = useMemo<Array<TimePoint | TimeGap>>(() => {
    const byDay = new Map(daily.map((row) => [row.date, row]));
    const days = daysBetween(range.from, range.to, MAX_FILLED_DAYS + 1);
    const slots = days.length > MAX_FILLED_DAYS ? [...byDay.keys()] : days;
    return slots.map((date) => {
      const row = byDay.get(date);
      return row
        ? { time: date, value: Number(row.pnl), note: t('dashboard.charts.trades', { count: row.trades }) }
        : { time: date };
    });
  }, [daily, range.from, range.to, t]);

  const balances = dashboard.balanceByAccount;
  const balanceTotal = balances.reduce((sum, account) => sum + Math.max(0, Number(account.balance)), 0);
  const capital = dashboard.capitalByBot;
  const noCapital = capital.every((bot) => Number(bot.deployed) === 0);
  // Each list gets the height it needs; side by side, the grid row stretches both cards alike.
  const balanceHeight = Math.max(200, balances.length * 40 + 24);
  const capitalHeight = noCapital ? 200 : Math.max(120, capital.length * 44 + 24);

  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      <ChartFrame
        title={t(cumulative ? 'dashboard.charts.cumulativePnl' : 'dashboard.charts.equityCurve')}
        description={t(
          cumulative ? 'dashboard.charts.cumulativeDescription' : 'dashboard.charts.equityDescription',
        )}
        units={units}
        empty={equityPoints.length === 0}
        height={260}
      >
        <TimeSeriesChart
          deferred
          data={equityPoints}
          formatValue={(value) => (cumulative ? format.pnl(value, code) : money(value))}
          formatTime={day}
          locale={locale}
          label={t(cumulative ? 'dashboard.charts.cumulativePnl' : 'dashboard.charts.equityCurve')}
        />
      </ChartFrame>
      <ChartFrame
        title={t('dashboard.charts.dailyPnl')}
        description={t('dashboard.charts.dailyPnlDescription')}
        units={units}
        empty={daily.length === 0}
        height={260}
      >
        <TimeSeriesChart
          deferred
          data={dailyPoints}
          variant="histogram"
          formatValue={(value) => format.pnl(value, code)}
          formatTime={day}
          locale={locale}
          label={t('dashboard.charts.dailyPnl')}
        />
      </ChartFrame>
      <ChartFrame
        title={t('dashboard.charts.balanceByAccount')}
        description={t('dashboard.charts.balanceDescription')}
        units={units}
        empty={balances.length === 0}
        height={balanceHeight}
      >
        <DonutChart
          label={t('dashboard.charts.balanceByAccount')}
          // The USDT each account holds, not its equity: named so beside the one total above (issue 21).
          totalLabel={t('portfolio.equity.usdtHeld')}
          total={money(balanceTotal.toFixed(2))}
          slices={balances.map((account) => ({
            key: account.accountId,
            label: account.nickname,
            badge: account.sandbox ? <TestnetBadge /> : undefined,
            value: Number(account.balance),
            display: money(account.balance),
            share: formatPercent(
              balanceTotal > 0 ? (Math.max(0, Number(account.balance)) / balanceTotal) * 100 : 0,
              {
                locale,
              },
            ),
          }))}
        />
      </ChartFrame>
      <ChartFrame
        title={t('dashboard.charts.capitalByBot')}
        description={t('dashboard.charts.capitalDescription', { count: topN })}
        units={units}
        empty={noCapital}
        emptyMessage={capital.length > 0 ? t('dashboard.charts.noCapital') : undefined}
        height={capitalHeight}
      >
        <BarList
          label={t('dashboard.charts.capitalByBot')}
          items={capital.map((bot) => ({
            key: bot.botId,
            label: bot.sandbox ? (
              <span className="inline-flex items-center gap-1.5">
                {bot.nickname}
                <TestnetBadge />
              </span>
            ) : (
              bot.nickname
            ),
            value: Number(bot.deployed),
            display: money(bot.deployed),
            detail: t('dashboard.charts.openTrades', { count: bot.openTrades }),
          }))}
        />
      </ChartFrame>
    </div>
  );
});
