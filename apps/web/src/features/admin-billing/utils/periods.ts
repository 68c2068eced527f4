import type { Period } from '../api/process-month';

/** Billing months are calendar months in UTC, as the server counts them. */
export function periodOf(date: Date): Period {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

export function previousPeriod(date: Date): Period {
  const { year, month } = periodOf(date);
  return month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
}

/** A month can be processed once it is over: its last instant is behind `now`. */
export function isPeriodOver({ year, month }: Period, now: Date): boolean {
  return Date.UTC(year, month, 1) <= now.getTime();
}

/** The years the month picker offers: this one and the `count − 1` before it. */
export function recentYears(now: Date, count = 5): number[] {
  const current = now.getUTCFullYear();
  return Array.from({ length: count }, (_, index) => current - index);
}

export function samePeriod(a: Period, b: Period): boolean {
  return a.year === b.year && a.month === b.month;
}
