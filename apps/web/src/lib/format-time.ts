/**
 * Chart times. lightweight-charts draws every time as UTC, so a point is handed to it as its
 * wall-clock time in the user's zone ("as if UTC") and formatted back with timeZone 'UTC'.
 */
const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let cached = cache.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(locale, options);
    cache.set(key, cached);
  }
  return cached;
}

/** A `YYYY-MM-DD` day as the locale writes it ("Jan 5, 2026", "5 janv. 2026"), not shifted by any zone. */
export function formatDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return formatter(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** The wall-clock time of an instant in a time zone, as UTC seconds (for the chart's time axis). */
export function wallClockSeconds(instant: string | Date, timeZone?: string): number {
  const date = instant instanceof Date ? instant : new Date(instant);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatter('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(date);
  } catch {
    return Math.floor(date.getTime() / 1000);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Math.floor(
    Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) /
      1000,
  );
}

/** The `YYYY-MM-DD` day of an instant in a time zone. */
export function dayIn(instant: string | Date, timeZone?: string): string {
  return new Date(wallClockSeconds(instant, timeZone) * 1000).toISOString().slice(0, 10);
}

/** Wall-clock seconds (from wallClockSeconds) as the locale writes date and time. */
export function formatWallClock(seconds: number, locale: string): string {
  return formatter(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(seconds * 1000),
  );
}
