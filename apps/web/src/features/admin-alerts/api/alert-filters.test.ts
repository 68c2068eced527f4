import { describe, expect, it } from 'vitest';
import {
  ALERTS_PAGE_SIZE,
  alertsQueryParams,
  filtersFromSearch,
  filtersToSearch,
  hasFilters,
  startOfDay,
  withFilter,
} from './alert-filters';

const search = (query: string) => new URLSearchParams(query);

describe('alert filters ↔ URL', () => {
  it('reads status, from, to, strategy key and page from the URL', () => {
    expect(
      filtersFromSearch(search('status=dead&from=2026-11-01&to=2026-11-21&strategyKey=trend-btc&page=3')),
    ).toEqual({ page: 3, status: 'dead', from: '2026-11-01', to: '2026-11-21', strategyKey: 'trend-btc' });
  });

  it('ignores what it cannot send: an unknown status, a malformed day, a page below 2', () => {
    expect(
      filtersFromSearch(search('status=lost&from=21/11/2026&to=2026-13-45&page=0&strategyKey=%20%20')),
    ).toEqual({ page: 1 });
    expect(filtersFromSearch(search('page=abc'))).toEqual({ page: 1 });
  });

  it('trims the strategy key', () => {
    expect(filtersFromSearch(search('strategyKey=%20trend%20')).strategyKey).toBe('trend');
  });

  it('writes the filters back, keeping the other parameters and leaving page 1 implied', () => {
    const written = filtersToSearch(
      { page: 1, status: 'failed', strategyKey: 'trend' },
      search('alert=a-1&from=2026-01-01&page=4'),
    );
    expect(Object.fromEntries(written)).toEqual({ alert: 'a-1', status: 'failed', strategyKey: 'trend' });
    expect(filtersToSearch({ page: 2 }).toString()).toBe('page=2');
  });

  it('round-trips', () => {
    const filters = {
      page: 5,
      status: 'queued' as const,
      from: '2026-10-01',
      to: '2026-10-31',
      strategyKey: 'k',
    };
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
  });

  it('goes back to the first page when a filter changes, and drops an emptied one', () => {
    const filters = { page: 4, status: 'dead' as const, strategyKey: 'trend' };
    expect(withFilter(filters, 'status', 'failed')).toEqual({
      page: 1,
      status: 'failed',
      strategyKey: 'trend',
    });
    expect(withFilter(filters, 'strategyKey', '  ')).toEqual({ page: 1, status: 'dead' });
    expect(withFilter(filters, 'from', '2026-11-02')).toMatchObject({ page: 1, from: '2026-11-02' });
    expect(withFilter(filters, 'status', 'nonsense'), 'ignored').toEqual({ ...filters, page: 1 });
  });

  it('knows when something is filtered', () => {
    expect(hasFilters({ page: 3 })).toBe(false);
    expect(hasFilters({ page: 1, to: '2026-11-21' })).toBe(true);
  });
});

describe('alert filters → GET /admin/alerts', () => {
  it('asks for pages of 25 (spec §9)', () => {
    expect(alertsQueryParams({ page: 2 }, 'UTC')).toMatchObject({ page: 2, pageSize: ALERTS_PAGE_SIZE });
    expect(ALERTS_PAGE_SIZE).toBe(25);
  });

  it('sends whole days in the admin’s time zone: from its first instant, to its last', () => {
    const params = alertsQueryParams({ page: 1, from: '2026-11-03', to: '2026-11-03' }, 'Europe/Paris');
    expect(params.from).toBe('2026-11-02T23:00:00.000Z');
    expect(params.to).toBe('2026-11-03T22:59:59.999Z');
    expect(alertsQueryParams({ page: 1, from: '2026-11-03' }, 'UTC').from).toBe('2026-11-03T00:00:00.000Z');
  });

  it('follows daylight saving: the night the clocks change keeps its own offset', () => {
    // Paris moves to summer time on 29 March 2026 at 01:00 UTC: that day starts at +1, the next at +2.
    expect(startOfDay('2026-03-29', 'Europe/Paris').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay('2026-03-30', 'Europe/Paris').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDay('2026-07-01', 'America/New_York').toISOString()).toBe('2026-07-01T04:00:00.000Z');
  });

  it('leaves out the filters that are not set', () => {
    expect(alertsQueryParams({ page: 1, status: 'dead' }, null)).toEqual({
      page: 1,
      pageSize: 25,
      status: 'dead',
      strategyKey: undefined,
      from: undefined,
      to: undefined,
    });
  });
});
