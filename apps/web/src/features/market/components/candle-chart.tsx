import {
  CandlestickSeries,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type Time,
  TickMarkType,
  type UTCTimestamp,
  createChart,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { usePreferences } from '../../../lib/preferences-store';
import type { Candle } from '../api/get-candles';
import { chartThemeOptions, cssVar, withAlpha } from '../../../components/ui/chart-theme';

export interface CandleChartProps {
  candles: Candle[];
  /** Decimals of the pair's price tick (BTC/USDT: 2). */
  precision: number;
  locale: string;
  timeZone?: string;
  /** "O", "H", "L", "C", "Vol" as the user reads them. */
  labels: { open: string; high: string; low: string; close: string; volume: string };
  /** Formats a price with the pair's quote currency for the legend (STYLE: tooltips carry the currency). */
  formatPrice: (value: string) => string;
  formatVolume: (value: string) => string;
  /** Accessible summary of what the chart shows. */
  label: string;
}

function themeOptions() {
  const theme = chartThemeOptions();
  return { ...theme, timeScale: { ...theme.timeScale, timeVisible: true, secondsVisible: false } };
}

function seriesColors() {
  const gain = cssVar('--k-gain');
  const loss = cssVar('--k-loss');
  return {
    candles: { upColor: gain, downColor: loss, wickUpColor: gain, wickDownColor: loss, borderVisible: false },
    gain: withAlpha(gain, 0.35),
    loss: withAlpha(loss, 0.35),
  };
}

const toTime = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;

/**
 * Candles and volume with TradingView's lightweight-charts; its own lazy chunk, never in the first
 * load. Times are shown in the user's time zone; the legend gives the exact OHLC of the candle under
 * the cursor (the last one otherwise).
 */
export default function CandleChart({
  candles,
  precision,
  locale,
  timeZone,
  labels,
  formatPrice,
  formatVolume,
  label,
}: CandleChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const candleSeriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumeSeriesRef = useRef<ISeriesApi<'Histogram'> | null>(null);
  const candlesRef = useRef(candles);
  const theme = usePreferences((state) => state.theme);
  const [hovered, setHovered] = useState<Candle | null>(null);
  const fitKey = useRef<string>('');

  useEffect(() => {
    candlesRef.current = candles;
  });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const priceFormat = new Intl.NumberFormat(locale, {
      minimumFractionDigits: precision,
      maximumFractionDigits: precision,
    });
    const dateTime = (seconds: number, options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat(locale, { timeZone, ...options }).format(new Date(seconds * 1000));
    const chart = createChart(container, {
      autoSize: true,
      ...themeOptions(),
      localization: {
        locale,
        // "59,000.00" in English, "59 000,00" in French, at the pair's tick.
        priceFormatter: (price: number) => priceFormat.format(price),
        timeFormatter: (time: Time) => dateTime(Number(time), { dateStyle: 'medium', timeStyle: 'short' }),
      },
      timeScale: {
        ...themeOptions().timeScale,
        tickMarkFormatter: (time: Time, type: TickMarkType) => {
          const seconds = Number(time);
          if (type === TickMarkType.Year) return dateTime(seconds, { year: 'numeric' });
          if (type === TickMarkType.Month) return dateTime(seconds, { month: 'short' });
          if (type === TickMarkType.DayOfMonth) return dateTime(seconds, { day: 'numeric', month: 'short' });
          return dateTime(seconds, { hour: '2-digit', minute: '2-digit' });
        },
      },
    });
    const colors = seriesColors();
    const candleSeries = chart.addSeries(CandlestickSeries, {
      ...colors.candles,
      priceFormat: { type: 'price', precision, minMove: 10 ** -precision },
    });
    const volumeSeries = chart.addSeries(HistogramSeries, {
      priceFormat: { type: 'volume' },
      priceScaleId: '',
      lastValueVisible: false,
      priceLineVisible: false,
    });
    volumeSeries.priceScale().applyOptions({ scaleMargins: { top: 0.82, bottom: 0 } });
    candleSeries.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.22 } });

    const onMove = (param: MouseEventParams<Time>) => {
      if (param.time === undefined || !param.point) {
        setHovered(null);
        return;
      }
      const time = Number(param.time) * 1000;
      setHovered(candlesRef.current.find((candle) => candle.time === time) ?? null);
    };
    chart.subscribeCrosshairMove(onMove);
    chartRef.current = chart;
    candleSeriesRef.current = candleSeries;
    volumeSeriesRef.current = volumeSeries;
    return () => {
      chart.unsubscribeCrosshairMove(onMove);
      chart.remove();
      chartRef.current = null;
      candleSeriesRef.current = null;
      volumeSeriesRef.current = null;
      fitKey.current = '';
    };
  }, [precision, locale, timeZone]);

  useEffect(() => {
    const candleSeries = candleSeriesRef.current;
    const volumeSeries = volumeSeriesRef.current;
    if (!candleSeries || !volumeSeries) return;
    const colors = seriesColors();
    candleSeries.applyOptions(colors.candles);
    candleSeries.setData(
      candles.map((candle) => ({
        time: toTime(candle.time),
        open: Number(candle.open),
        high: Number(candle.high),
        low: Number(candle.low),
        close: Number(candle.close),
      })),
    );
    volumeSeries.setData(
      candles.map((candle) => ({
        time: toTime(candle.time),
        value: Number(candle.volume),
        color: Number(candle.close) >= Number(candle.open) ? colors.gain : colors.loss,
      })),
    );
    // Fit once per series (a new pair or time frame), not on every refresh: the user's zoom stays.
    const key = `${candles[0]?.time ?? ''}`;
    if (key !== fitKey.current && candles.length > 0) {
      fitKey.current = key;
      chartRef.current?.timeScale().fitContent();
    }
  }, [candles, theme]);

  useEffect(() => {
    chartRef.current?.applyOptions(themeOptions());
  }, [theme]);

  const shown = hovered ?? candles[candles.length - 1];
  const rising = shown ? Number(shown.close) >= Number(shown.open) : true;
  return (
    <div className="relative h-full w-full" role="figure" aria-label={label}>
      <div ref={containerRef} className="h-full w-full" />
      {shown ? (
        <dl
          className={`num pointer-events-none absolute top-1 left-2 z-10 flex flex-wrap gap-x-3 gap-y-0.5 rounded bg-surface/80 px-1.5 py-0.5 text-[11px] ${rising ? 'text-gain' : 'text-loss'}`}
        >
          {(
            [
              [labels.open, formatPrice(shown.open)],
              [labels.high, formatPrice(shown.high)],
              [labels.low, formatPrice(shown.low)],
              [labels.close, formatPrice(shown.close)],
              [labels.volume, formatVolume(shown.volume)],
            ] as const
          ).map(([name, value]) => (
            <div key={name} className="flex gap-1">
              <dt className="text-subtle">{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}
