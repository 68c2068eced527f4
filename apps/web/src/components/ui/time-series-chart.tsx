import {
  AreaSeries,
  type AutoscaleInfo,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type Time,
  createChart,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { usePreferences } from '../../lib/preferences-store';
import { chartThemeOptions, cssVar, withAlpha } from './chart-theme';

export interface TimePoint {
  /** 'YYYY-MM-DD' for daily series; UTC seconds for intraday ones. */
  time: string | number;
  value: number;
  /** An extra line in the tooltip (e.g. "3 trades"). */
  note?: string;
}

/** An empty slot on the time axis: a day without trades keeps its place. */
export interface TimeGap {
  time: string | number;
  value?: undefined;
  note?: undefined;
}

export interface TimeSeriesChartProps {
  data: Array<TimePoint | TimeGap>;
  /** Area for levels (equity), histogram for changes (daily PnL: green up, red down). */
  variant?: 'area' | 'histogram';
  /** Formats values on the axis and in the tooltip, with the currency (STYLE "How it looks"). */
  formatValue: (value: number) => string;
  /** Accessible summary of what the chart shows. */
  label: string;
  /** Formats a point's time in the tooltip and on the crosshair (per locale); raw time otherwise. */
  formatTime?: (time: string | number) => string;
  /** Locale of the time axis labels (month names); the browser's otherwise. */
  locale?: string;
  /** Intraday series: the time axis shows hours. */
  timeVisible?: boolean;
}

function themeOptions() {
  const theme = chartThemeOptions();
  return {
    ...theme,
    rightPriceScale: { ...theme.rightPriceScale, scaleMargins: { top: 0.12, bottom: 0.12 } },
  };
}

/**
 * A flat series (one day, or a balance that did not move) would fill the axis with cents; the
 * axis spans at least 1% of the value around it instead.
 */
function atLeastOnePercent(original: () => AutoscaleInfo | null): AutoscaleInfo | null {
  const info = original();
  if (!info?.priceRange) return info;
  const { minValue, maxValue } = info.priceRange;
  const floor = Math.max(Math.abs(minValue), Math.abs(maxValue)) * 0.01 || 1;
  if (maxValue - minValue >= floor) return info;
  const middle = (minValue + maxValue) / 2;
  return { ...info, priceRange: { minValue: middle - floor / 2, maxValue: middle + floor / 2 } };
}

/** The time as the data gave it: 'YYYY-MM-DD' for business days, UTC seconds otherwise. */
function timeKey(time: Time): string | number {
  if (typeof time === 'object') {
    return `${time.year}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
  }
  return time;
}

/** lightweight-charts (TradingView) time series; loaded in its own chunk, never in the first load. */
export default function TimeSeriesChart({
  data,
  variant = 'area',
  formatValue,
  label,
  formatTime,
  locale,
  timeVisible = false,
}: TimeSeriesChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Area'> | ISeriesApi<'Histogram'> | null>(null);
  const formatRef = useRef(formatValue);
  const formatTimeRef = useRef(formatTime);
  const notesRef = useRef(new Map<string, string>());
  const theme = usePreferences((state) => state.theme);
  const [tooltip, setTooltip] = useState<{ x: number; time: string; value: string; note?: string } | null>(
    null,
  );

  useEffect(() => {
    formatRef.current = formatValue;
    formatTimeRef.current = formatTime;
  });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      ...themeOptions(),
      // Axis labels at 2 decimals (the tooltip shows the exact value): the axis stays narrow.
      localization: {
        priceFormatter: (price: number) => formatRef.current(Math.round(price * 100) / 100),
        ...(locale ? { locale } : {}),
        ...(formatTimeRef.current
          ? { timeFormatter: (time: Time) => formatTimeRef.current?.(timeKey(time)) ?? String(timeKey(time)) }
          : {}),
      },
      handleScroll: false,
      handleScale: false,
    });
    chart.applyOptions({ timeScale: { timeVisible, secondsVisible: false } });
    const accent = cssVar('--k-accent');
    const series =
      variant === 'histogram'
        ? chart.addSeries(HistogramSeries, {
            priceLineVisible: false,
            lastValueVisible: false,
            autoscaleInfoProvider: atLeastOnePercent,
          })
        : chart.addSeries(AreaSeries, {
            lineColor: accent,
            topColor: withAlpha(accent, 0.3),
            bottomColor: withAlpha(accent, 0.02),
            lineWidth: 2,
            priceLineVisible: false,
            autoscaleInfoProvider: atLeastOnePercent,
          });
    const onMove = (param: MouseEventParams<Time>) => {
      const point = param.seriesData.get(series) as { value?: number } | undefined;
      if (!param.point || param.time === undefined || point?.value === undefined) {
        setTooltip(null);
        return;
      }
      const time = timeKey(param.time);
      setTooltip({
        // Kept inside the chart near its right edge too.
        x: Math.max(4, Math.min(param.point.x - 60, container.clientWidth - 170)),
        time: formatTimeRef.current?.(time) ?? String(time),
        value: formatRef.current(point.value),
        note: notesRef.current.get(String(time)),
      });
    };
    chart.subscribeCrosshairMove(onMove);
    chartRef.current = chart;
    seriesRef.current = series;
    return () => {
      chart.unsubscribeCrosshairMove(onMove);
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
    };
  }, [variant, locale, timeVisible]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    const gain = cssVar('--k-gain');
    const loss = cssVar('--k-loss');
    notesRef.current = new Map(
      data.flatMap((point) => (point.note ? [[String(point.time), point.note] as const] : [])),
    );
    series.setData(
      data.map((point) => {
        const time = point.time as Time;
        if (point.value === undefined) return { time };
        return variant === 'histogram'
          ? { time, value: point.value, color: point.value >= 0 ? gain : loss }
          : { time, value: point.value };
      }),
    );
    // A short series shows its points: one or two days are dots, not an invisible line.
    if (variant === 'area') series.applyOptions({ pointMarkersVisible: data.length <= 31 });
    chartRef.current?.timeScale().fitContent();
    // The chart is made anew when the variant, locale or time axis changes: its data follows.
  }, [data, variant, theme, locale, timeVisible]);

  useEffect(() => {
    chartRef.current?.applyOptions(themeOptions());
  }, [theme]);

  return (
    <div className="relative h-full w-full" role="figure" aria-label={label}>
      <div ref={containerRef} className="h-full w-full" />
      {tooltip ? (
        <div
          className="pointer-events-none absolute top-1 z-10 rounded border border-line-strong bg-surface-2 px-2 py-1 text-xs shadow-lg"
          style={{ left: tooltip.x }}
        >
          <p className="text-subtle">{tooltip.time}</p>
          <p className="num font-medium text-fg">{tooltip.value}</p>
          {tooltip.note ? <p className="text-subtle">{tooltip.note}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
