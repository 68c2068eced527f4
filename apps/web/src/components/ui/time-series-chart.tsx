import {
  AreaSeries,
  ColorType,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type Time,
  createChart,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { usePreferences } from '../../lib/preferences-store';

export interface TimePoint {
  /** 'YYYY-MM-DD' for daily series. */
  time: string;
  value: number;
}

export interface TimeSeriesChartProps {
  data: TimePoint[];
  /** Area for levels (equity), histogram for changes (daily PnL: green up, red down). */
  variant?: 'area' | 'histogram';
  /** Formats values on the axis and in the tooltip, with the currency (STYLE "How it looks"). */
  formatValue: (value: number) => string;
  /** Accessible summary of what the chart shows. */
  label: string;
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** '#4f8cff' → 'rgba(79, 140, 255, 0.35)': the chart's own colour parser wants plain colours. */
function withAlpha(hex: string, alpha: number): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return hex;
  const [r, g, b] = match.slice(1).map((part) => Number.parseInt(part, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

function themeOptions() {
  return {
    layout: {
      background: { type: ColorType.Solid, color: cssVar('--k-surface') },
      textColor: cssVar('--k-muted'),
      fontFamily: getComputedStyle(document.documentElement).fontFamily,
      fontSize: 11,
    },
    grid: { vertLines: { color: cssVar('--k-line') }, horzLines: { color: cssVar('--k-line') } },
    rightPriceScale: { borderColor: cssVar('--k-line'), scaleMargins: { top: 0.12, bottom: 0.12 } },
    timeScale: { borderColor: cssVar('--k-line') },
    crosshair: {
      vertLine: { labelBackgroundColor: cssVar('--k-surface-3') },
      horzLine: { labelBackgroundColor: cssVar('--k-surface-3') },
    },
  };
}

/** lightweight-charts (TradingView) time series; loaded in its own chunk, never in the first load. */
export default function TimeSeriesChart({
  data,
  variant = 'area',
  formatValue,
  label,
}: TimeSeriesChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Area'> | ISeriesApi<'Histogram'> | null>(null);
  const formatRef = useRef(formatValue);
  const theme = usePreferences((state) => state.theme);
  const [tooltip, setTooltip] = useState<{ x: number; time: string; value: string } | null>(null);

  useEffect(() => {
    formatRef.current = formatValue;
  });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      ...themeOptions(),
      // Axis labels at 2 decimals (the tooltip shows the exact value): the axis stays narrow.
      localization: { priceFormatter: (price: number) => formatRef.current(Math.round(price * 100) / 100) },
      handleScroll: false,
      handleScale: false,
    });
    const accent = cssVar('--k-accent');
    const series =
      variant === 'histogram'
        ? chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false })
        : chart.addSeries(AreaSeries, {
            lineColor: accent,
            topColor: withAlpha(accent, 0.3),
            bottomColor: withAlpha(accent, 0.02),
            lineWidth: 2,
            priceLineVisible: false,
          });
    const onMove = (param: MouseEventParams<Time>) => {
      const point = param.seriesData.get(series) as { value?: number } | undefined;
      if (!param.point || param.time === undefined || point?.value === undefined) {
        setTooltip(null);
        return;
      }
      setTooltip({ x: param.point.x, time: String(param.time), value: formatRef.current(point.value) });
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
  }, [variant]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    const gain = cssVar('--k-gain');
    const loss = cssVar('--k-loss');
    series.setData(
      data.map((point) =>
        variant === 'histogram'
          ? { time: point.time as Time, value: point.value, color: point.value >= 0 ? gain : loss }
          : { time: point.time as Time, value: point.value },
      ),
    );
    chartRef.current?.timeScale().fitContent();
  }, [data, variant, theme]);

  useEffect(() => {
    chartRef.current?.applyOptions(themeOptions());
  }, [theme]);

  return (
    <div className="relative h-full w-full" role="img" aria-label={label}>
      <div ref={containerRef} className="h-full w-full" />
      {tooltip ? (
        <div
          className="pointer-events-none absolute top-1 z-10 rounded border border-line-strong bg-surface-2 px-2 py-1 text-xs shadow-lg"
          style={{ left: Math.max(4, tooltip.x - 60) }}
        >
          <p className="text-subtle">{tooltip.time}</p>
          <p className="num font-medium text-fg">{tooltip.value}</p>
        </div>
      ) : null}
    </div>
  );
}
