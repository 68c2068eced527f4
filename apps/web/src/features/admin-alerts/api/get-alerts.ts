import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';
import type { Row } from '../../../lib/fields';

/** Spec §9: alerts page size 25. */
export const ALERTS_PAGE_SIZE = 25;

export const ALERT_STATUSES = ['queued', 'in_progress', 'succeeded', 'failed', 'dead'] as const;

export interface AlertFilters {
  page: number;
  status?: string;
  strategyKey?: string;
  from?: string;
  to?: string;
}

export async function getAlerts(filters: AlertFilters): Promise<Page<Row>> {
  const body = await api.get<unknown>('/admin/alerts', {
    params: { pageSize: ALERTS_PAGE_SIZE, ...filters },
  });
  return unwrapPage<Row>(body, { page: filters.page, pageSize: ALERTS_PAGE_SIZE });
}

export const alertsQueryOptions = (filters: AlertFilters) =>
  queryOptions({
    queryKey: ['admin', 'alerts', filters],
    queryFn: () => getAlerts(filters),
    placeholderData: keepPreviousData,
  });

export function useAlerts(filters: AlertFilters) {
  return useQuery(alertsQueryOptions(filters));
}
