import type { AdminAlert } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';
import { usePreferences } from '../../../lib/preferences-store';
import { ALERTS_PAGE_SIZE, type AlertFilters, alertsQueryParams } from './alert-filters';

export type { AdminAlert };

/** Every alerts query lives under this key: live `alert` events and the admin's moves refresh them all. */
export const adminAlertsKey = ['admin', 'alerts'] as const;

export async function getAlerts(filters: AlertFilters, timeZone?: string | null): Promise<Page<AdminAlert>> {
  const body = await api.get<unknown>('/admin/alerts', { params: alertsQueryParams(filters, timeZone) });
  return unwrapPage<AdminAlert>(body, { page: filters.page, pageSize: ALERTS_PAGE_SIZE });
}

export const alertsQueryOptions = (filters: AlertFilters, timeZone?: string | null) =>
  queryOptions({
    queryKey: [...adminAlertsKey, 'list', { ...filters, timeZone: timeZone ?? null }],
    queryFn: () => getAlerts(filters, timeZone),
    placeholderData: keepPreviousData,
  });

/** The days of the filters are read in the admin's time zone (the one the table shows times in). */
export function useAlerts(filters: AlertFilters) {
  const timeZone = usePreferences((state) => state.timezone);
  return useQuery(alertsQueryOptions(filters, timeZone));
}
