import type { TimePoint } from '../../../components/ui/chart';
import { dayIn, wallClockSeconds } from '../../../lib/format-time';
import type { PortfolioHistory, PortfolioPeriod } from '../api/get-portfolio-history';

/** Periods whose points are hours apart: the chart's time axis shows hours. */
export function isIntraday(period: PortfolioPeriod): boolean {
  return period === '1d' || period === '7d';
}

/**
 * The history's points for the chart, ascending with one point per time: hourly periods on the
 * user's wall clock, longer ones one point per day (the day's last value, so "now" ends the curve).
 */
export function historyPoints(
  points: PortfolioHistory['points'],
  period: PortfolioPeriod,
  timeZone?: string,
): TimePoint[] {
  const byTime = new Map<string | number, number>();
  const sorted = [...points].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  for (const point of sorted) {
    const value = Number(point.value);
    if (!Number.isFinite(value)) continue;
    const time = isIntraday(period) ? wallClockSeconds(point.time, timeZone) : dayIn(point.time, timeZone);
    byTime.delete(time); // re-inserted last: keeps the order ascending
    byTime.set(time, value);
  }
  return [...byTime].map(([time, value]) => ({ time, value }));
}
