import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartFrame } from '../../../components/ui/chart-frame';
import { Skeleton } from '../../../components/ui/skeleton';
import { queryState } from '../../../components/ui/states';
import { timeFrameLabel } from '../../../i18n/time-frame';
import { cn } from '../../../lib/cn';
import { usePreferences } from '../../../lib/preferences-store';
import { useFormatters } from '../../../lib/use-formatters';
import { CHART_TIMEFRAMES, type Timeframe, useCandles } from '../api/get-candles';
import { decimalsOf } from '../utils/market-figures';

// The chart library stays out of the route chunk: it arrives with the first chart on screen.
const CandleChart = lazy(() => import('./candle-chart'));

export interface PriceChartProps {
  symbol: string;
  accountId?: string;
  /** The pair's price tick ('0.01'), for the axis decimals. */
  priceTick?: string | null;
  timeframe: Timeframe;
  onTimeframeChange: (timeframe: Timeframe) => void;
}

/** Spec §2 Trading: the pair's candles, with a time-frame switch. */
export function PriceChart({ symbol, accountId, priceTick, timeframe, onTimeframeChange }: PriceChartProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const timeZone = usePreferences((state) => state.timezone) ?? undefined;
  const candles = useCandles(symbol, timeframe, accountId);
  const quote = symbol.split('/')[1] ?? '';
  const precision = decimalsOf(priceTick);

  const switcher = (
    <div
      role="radiogroup"
      aria-label={t('trading.chart.timeframe')}
      className="flex rounded-md border border-line bg-surface-2 p-0.5"
    >
      {CHART_TIMEFRAMES.map((frame) => (
        <button
          key={frame}
          type="button"
          role="radio"
          aria-checked={frame === timeframe}
          onClick={() => onTimeframeChange(frame)}
          className={cn(
            'num rounded px-2 py-0.5 text-xs transition-colors',
            frame === timeframe ? 'bg-surface-3 font-medium text-fg' : 'text-muted hover:text-fg',
          )}
        >
          {timeFrameLabel(t, frame)}
        </button>
      ))}
    </div>
  );

  return (
    <ChartFrame
      title={t('trading.chart.title', { symbol })}
      units={quote}
      height={380}
      {...queryState(candles)}
      empty={candles.data?.length === 0}
      emptyMessage={t('trading.chart.empty')}
      actions={switcher}
    >
      <Suspense fallback={<Skeleton className="h-full w-full" />}>
        <CandleChart
          candles={candles.data ?? []}
          precision={precision}
          locale={format.locale}
          timeZone={timeZone}
          labels={{
            open: t('trading.chart.open'),
            high: t('trading.chart.high'),
            low: t('trading.chart.low'),
            close: t('trading.chart.close'),
            volume: t('trading.chart.volume'),
          }}
          formatPrice={(value) => `${format.decimal(value)} ${quote}`}
          formatVolume={(value) => format.decimal(value)}
          label={t('trading.chart.label', { symbol, timeframe: timeFrameLabel(t, timeframe) })}
        />
      </Suspense>
    </ChartFrame>
  );
}
