import type { DashboardParams } from '../api/get-dashboard';

/**
 * The dashboard's filters live in the URL, so a filtered view can be reloaded, shared and kept
 * in history: `?range=7d`, or `?from=2026-01-01&to=2026-01-31`, plus `&account=<id>&bot=<id>`.
 * The default (last 30 days, everything) leaves the query string empty.
 */
export const RANGE_PRESETS = ['7d', '30d', '90d', 'ytd', '1y'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = '30d';

export interface DashboardFilters {
  /** A preset, or 'custom' with `from` and/or `to`. */
  range: RangePreset | 'custom';
  from?: string;
  to?: string;
  accountId?: string;
  botId?: string;
}

export const DEFAULT_FILTERS: DashboardFilters = { range: DEFAULT_PRESET };

const DAY_MS = 86_400_000;

function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A real calendar day written `YYYY-MM-DD`. */
export function isDay(value: string | null | undefined): value is string {
  return typeof value === 'string' && isCalendarDay(value);
}

/** Ids are opaque to the web, but only plain ones reach the server. */
function idParam(value: string | null): string | undefined {
  return value && /^[\w-]{1,64}$/.test(value) ? value : undefined;
}

function isPreset(value: string | null): value is RangePreset {
  return (RANGE_PRESETS as readonly (string | null)[]).includes(value);
}

export function parseDashboardFilters(search: URLSearchParams): DashboardFilters {
  const from = search.get('from');
  const to = search.get('to');
  const range = search.get('range');
  const filters: DashboardFilters =
    isDay(from) || isDay(to)
      ? {
          range: 'custom',
          ...(isDay(from) ? { from } : {}),
          ...(isDay(to) ? { to } : {}),
        }
      : { range: isPreset(range) ? range : DEFAULT_PRESET };
  const accountId = idParam(search.get('account'));
  const botId = idParam(search.get('bot'));
  if (accountId) filters.accountId = accountId;
  if (botId) filters.botId = botId;
  return filters;
}

/** The query string of a set of filters; defaults are left out. */
export function dashboardSearch(filters: DashboardFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.range === 'custom') {
    if (filters.from) search.set('from', filters.from);
    if (filters.to) search.set('to', filters.to);
  } else if (filters.range !== DEFAULT_PRESET) {
    search.set('range', filters.range);
  }
  if (filters.accountId) search.set('account', filters.accountId);
  if (filters.botId) search.set('bot', filters.botId);
  return search;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** One day formatter per time zone: building an Intl.DateTimeFormat costs far more than using one. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** Today in a time zone (the user's, or the browser's when none is set). */
export function todayIn(timeZone?: string, now: Date = new Date()): string {
  // The browser's own: its date as it stands (a first Intl.DateTimeFormat costs tens of ms on a phone, issue 21).
  if (!timeZone) return `${now.getFullYear()}-${twoDigits(now.getMonth() + 1)}-${twoDigits(now.getDate())}`;
  try {
    let format = dayFormats.get(timeZone ?? '');
    if (!format) {
      // en-CA writes dates as YYYY-MM-DD.
      format = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      dayFormats.set(timeZone ?? '', format);
    }
    return format.format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** The days a set of filters covers, both ends inclusive, oldest first. */
export function resolveRange(filters: DashboardFilters, today: string): { from: string; to: string } {
  switch (filters.range) {
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case '90d':
      return { from: addDays(today, -89), to: today };
    case 'ytd':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case '1y': {
      const sameDay = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
      // 29 February has no twin a year back: the 28th stands in.
      return { from: addDays(isCalendarDay(sameDay) ? sameDay : `${sameDay.slice(0, 8)}28`, 1), to: today };
    }
    case 'custom': {
      const to = filters.to ?? (filters.from && filters.from > today ? filters.from : today);
      const from = filters.from ?? addDays(to, -29);
      return from <= to ? { from, to } : { from: to, to: from };
    }
  }
}

/** What GET /api/dashboard is asked for. */
export function toDashboardParams(filters: DashboardFilters, today: string, topN?: number): DashboardParams {
  return {
    ...resolveRange(filters, today),
    ...(filters.accountId ? { accountId: filters.accountId } : {}),
    ...(filters.botId ? { botId: filters.botId } : {}),
    ...(topN ? { topN } : {}),
  };
}

/** An account or bot is picked: an empty answer means "nothing here", not "nothing at all". */
export function isNarrowed(filters: DashboardFilters): boolean {
  return filters.accountId !== undefined || filters.botId !== undefined;
}

export function isDefaultFilters(filters: DashboardFilters): boolean {
  return dashboardSearch(filters).toString() === '';
}

/** Every day from `from` to `to`, inclusive (the daily PnL chart keeps a slot for quiet days). */
export function daysBetween(from: string, to: string, limit = 1_000): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length < limit; day = addDays(day, 1)) days.push(day);
  return days;
}
