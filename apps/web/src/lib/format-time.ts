/**
 * Times as the user reads them: every instant the app shows goes through `formatInstant`, in the user's chosen
 * zone (Settings → Preferences; the browser's when none) — issue 21: a table that used the browser's zone said
 * 02:32 where trade detail said 03:32 Paris.
 *
 * - `dateTime`: "Nov 21, 2026, 12:38 PM" (the default)
 * - `compact`: "Nov 21, 12:38 PM", the year only when it is not this one in that zone (narrow table columns)
 * - `seconds`: "Nov 21, 12:38:05 PM" (a trade's orders and fills, often seconds apart)
 * - `date`: "Nov 21, 2026"
 */
export type InstantStyle = 'dateTime' | 'compact' | 'seconds' | 'date';

const STYLES: Record<Exclude<InstantStyle, 'compact'>, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  seconds: { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' },
  date: { dateStyle: 'medium' },
};
const COMPACT: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};

export function formatInstant(
  value: string | number | Date | null | undefined,
  options: { locale?: string; timeZone?: string; style?: InstantStyle; now?: Date } = {},
): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const { locale = 'en-US', style = 'dateTime' } = options;
  const timeZone = validZone(options.timeZone);
  let shape: Intl.DateTimeFormatOptions;
  if (style === 'compact') {
    const thisYear =
      dayIn(options.now ?? new Date(), timeZone).slice(0, 4) === dayIn(date, timeZone).slice(0, 4);
    shape = thisYear ? COMPACT : { ...COMPACT, year: 'numeric' };
  } else shape = STYLES[style];
  return formatter(locale, { ...shape, timeZone }).format(date);
}

/** A zone Intl knows, else none (the browser's): a stale stored preference never breaks a screen. */
function validZone(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    formatter('en-US', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

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
