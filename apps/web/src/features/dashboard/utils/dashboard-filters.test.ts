import { describe, expect, it } from 'vitest';
import {
  type DashboardFilters,
  dashboardSearch,
  daysBetween,
  parseDashboardFilters,
  resolveRange,
  toDashboardParams,
  todayIn,
} from './dashboard-filters';

const parse = (query: string) => parseDashboardFilters(new URLSearchParams(query));

describe('dashboard filters in the URL', () => {
  it.each<[string, DashboardFilters]>([
    ['', { range: '30d' }],
    ['range=7d', { range: '7d' }],
    ['range=ytd&account=acc-1', { range: 'ytd', accountId: 'acc-1' }],
    ['from=2026-01-01&to=2026-01-31', { range: 'custom', from: '2026-01-01', to: '2026-01-31' }],
    ['from=2026-01-01&bot=b-2', { range: 'custom', from: '2026-01-01', botId: 'b-2' }],
    // A custom range wins over a preset left behind.
    ['range=7d&to=2026-02-10', { range: 'custom', to: '2026-02-10' }],
  ])('reads ?%s', (query, filters) => {
    expect(parse(query)).toEqual(filters);
  });

  it.each([
    ['range=2w', { range: '30d' }],
    ['from=2026-02-30', { range: '30d' }],
    ['from=yesterday&to=2026-13-01', { range: '30d' }],
    ['account=%3Cscript%3E&bot=', { range: '30d' }],
  ])('ignores what is not a filter: ?%s', (query, filters) => {
    expect(parse(query)).toEqual(filters);
  });

  it.each<DashboardFilters>([
    { range: '7d' },
    { range: '1y', accountId: 'acc-1', botId: 'bot-9' },
    { range: 'custom', from: '2025-12-01', to: '2026-01-15' },
    { range: 'custom', from: '2025-12-01', accountId: 'acc-1' },
  ])('writes and reads back %j', (filters) => {
    expect(parseDashboardFilters(dashboardSearch(filters))).toEqual(filters);
  });

  it('leaves the default out of the URL', () => {
    expect(dashboardSearch({ range: '30d' }).toString()).toBe('');
    expect(dashboardSearch({ range: '90d', botId: 'b1' }).toString()).toBe('range=90d&bot=b1');
  });
});

describe('the days a filter covers (both ends inclusive)', () => {
  const today = '2026-03-15';
  it.each<[DashboardFilters, { from: string; to: string }]>([
    [{ range: '7d' }, { from: '2026-03-09', to: today }],
    [{ range: '30d' }, { from: '2026-02-14', to: today }],
    [{ range: '90d' }, { from: '2025-12-16', to: today }],
    [{ range: 'ytd' }, { from: '2026-01-01', to: today }],
    [{ range: '1y' }, { from: '2025-03-16', to: today }],
    [
      { range: 'custom', from: '2026-01-10', to: '2026-01-20' },
      { from: '2026-01-10', to: '2026-01-20' },
    ],
    [
      { range: 'custom', from: '2026-01-20', to: '2026-01-10' },
      { from: '2026-01-10', to: '2026-01-20' },
    ],
    [
      { range: 'custom', from: '2026-03-01' },
      { from: '2026-03-01', to: today },
    ],
    [
      { range: 'custom', to: '2026-01-31' },
      { from: '2026-01-02', to: '2026-01-31' },
    ],
  ])('%j', (filters, range) => {
    expect(resolveRange(filters, today)).toEqual(range);
  });

  it('goes back a year from 29 February', () => {
    expect(resolveRange({ range: '1y' }, '2028-02-29')).toEqual({ from: '2027-03-01', to: '2028-02-29' });
  });

  it('asks the server for those days, the account, the bot and the top N', () => {
    expect(toDashboardParams({ range: '7d', accountId: 'a1', botId: 'b1' }, today, 8)).toEqual({
      from: '2026-03-09',
      to: today,
      accountId: 'a1',
      botId: 'b1',
      topN: 8,
    });
  });

  it('takes today in the user time zone', () => {
    const instant = new Date('2026-03-15T23:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-03-15');
    expect(todayIn('Europe/Paris', instant)).toBe('2026-03-16');
    expect(todayIn('America/New_York', instant)).toBe('2026-03-15');
  });

  it('lists every day of a range for the daily chart', () => {
    expect(daysBetween('2026-02-27', '2026-03-02')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
  });
});
