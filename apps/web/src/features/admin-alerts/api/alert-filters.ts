import { ALERT_STATUSES, type AdminAlertStatus } from '@kairos/contract';
import type { QueryParams } from '../../../lib/api-client';

/** Spec §9: alerts page size 25. */
export const ALERTS_PAGE_SIZE = 25;

/** The filters of the alerts screen, as they stand in its URL (`?status=dead&from=2026-11-01&page=2`). */
export interface AlertFilters {
  page: number;
  status?: AdminAlertStatus;
  strategyKey?: string;
  /** Calendar days (`YYYY-MM-DD`) in the admin's time zone, both included. */
  from?: string;
  to?: string;
}

export type AlertFilterName = Exclude<keyof AlertFilters, 'page'>;

const FILTER_NAMES: AlertFilterName[] = ['status', 'from', 'to', 'strategyKey'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  return DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

function isAlertStatus(value: string): value is AdminAlertStatus {
  return (ALERT_STATUSES as readonly string[]).includes(value);
}

/** Reads the filters from the URL; anything malformed is ignored rather than sent to the server. */
export function filtersFromSearch(search: URLSearchParams): AlertFilters {
  const filters: AlertFilters = { page: 1 };
  const page = Number(search.get('page'));
  if (Number.isInteger(page) && page > 1) filters.page = page;
  const status = search.get('status');
  if (status && isAlertStatus(status)) filters.status = status;
  const strategyKey = search.get('strategyKey')?.trim();
  if (strategyKey) filters.strategyKey = strategyKey.slice(0, 64);
  for (const name of ['from', 'to'] as const) {
    const day = search.get(name);
    if (day && isDay(day)) filters[name] = day;
  }
  return filters;
}

/** Writes the filters into the URL, keeping its other parameters (the open alert, say). Page 1 is implied. */
export function filtersToSearch(filters: AlertFilters, current = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value) next.set(name, value);
    else next.delete(name);
  }
  if (filters.page > 1) next.set('page', String(filters.page));
  else next.delete('page');
  return next;
}

/** One filter changed: back to the first page, since the old page number means nothing any more. */
export function withFilter(filters: AlertFilters, name: AlertFilterName, value: string): AlertFilters {
  const next: AlertFilters = { ...filters, page: 1 };
  const trimmed = value.trim();
  if (!trimmed) delete next[name];
  else if (name === 'status') {
    if (isAlertStatus(trimmed)) next.status = trimmed;
  } else if (name === 'strategyKey') next.strategyKey = trimmed;
  else if (isDay(trimmed)) next[name] = trimmed;
  return next;
}

export function hasFilters(filters: AlertFilters): boolean {
  return FILTER_NAMES.some((name) => filters[name] !== undefined);
}

/** Milliseconds the zone is ahead of UTC at that instant. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wallClock = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wallClock - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a calendar day starts in a time zone (the browser's when none is set): the screen
 * shows times in the admin's zone, so "from the 3rd" must mean the 3rd there, not in UTC.
 */
export function startOfDay(day: string, timeZone?: string | null): Date {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  if (!timeZone) return new Date(year, month - 1, date);
  try {
    const midnightUtc = Date.UTC(year, month - 1, date);
    const guess = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
    // Once more at the guess: the offset differs when daylight saving changes that night.
    return new Date(midnightUtc - zoneOffsetMs(guess, timeZone));
  } catch {
    return new Date(year, month - 1, date); // an unknown zone name: the browser's own
  }
}

function nextDay(day: string): string {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** GET /admin/alerts parameters: the days become instants, `to` covering its whole day. */
export function alertsQueryParams(filters: AlertFilters, timeZone?: string | null): QueryParams {
  return {
    page: filters.page,
    pageSize: ALERTS_PAGE_SIZE,
    status: filters.status,
    strategyKey: filters.strategyKey,
    from: filters.from ? startOfDay(filters.from, timeZone).toISOString() : undefined,
    to: filters.to
      ? new Date(startOfDay(nextDay(filters.to), timeZone).getTime() - 1).toISOString()
      : undefined,
  };
}
