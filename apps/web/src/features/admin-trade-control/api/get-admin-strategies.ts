import type { AdminStrategy } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';

export type { AdminStrategy };

/** Every trade-control query lives under this key: trade and order events refresh them all. */
export const tradeControlKey = ['admin', 'trade-control'] as const;

/** GET /admin/strategies: every strategy of every user, with its figures. */
export async function getAdminStrategies(): Promise<AdminStrategy[]> {
  const results = unwrapResults<unknown>(await api.get<unknown>('/admin/strategies'));
  return Array.isArray(results) ? (results as AdminStrategy[]) : [];
}

export const adminStrategiesQueryOptions = () =>
  queryOptions({ queryKey: [...tradeControlKey, 'strategies'], queryFn: getAdminStrategies });

export function useAdminStrategies() {
  return useQuery(adminStrategiesQueryOptions());
}
