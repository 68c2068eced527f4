import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type Row, isRow } from '../../../lib/fields';

export async function getBillingUser(userId: string): Promise<Row> {
  const results = unwrapResults<unknown>(
    await api.get<unknown>('/admin/billing/user', { params: { userId } }),
  );
  return isRow(results) ? results : {};
}

export const billingUserQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['admin', 'billing', 'user', userId], queryFn: () => getBillingUser(userId) });

export function useBillingUser(userId: string) {
  return useQuery(billingUserQueryOptions(userId));
}
