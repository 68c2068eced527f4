import type { AdminAlertDetail } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { adminAlertsKey } from './get-alerts';

export type { AdminAlertDetail };

/** GET /admin/alerts/:id: the payload, per-bot outcomes, errors and every transition. */
export async function getAlert(id: string): Promise<AdminAlertDetail> {
  return unwrapResults<AdminAlertDetail>(await api.get<unknown>(`/admin/alerts/${encodeURIComponent(id)}`));
}

export const alertQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...adminAlertsKey, 'detail', id], queryFn: () => getAlert(id) });

export function useAlert(id: string) {
  return useQuery(alertQueryOptions(id));
}
