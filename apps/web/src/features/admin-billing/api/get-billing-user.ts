import type { BillingUserDetail } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { billingKey } from './get-billing-users';

export type { BillingUserDetail };
export type BillingRecord = BillingUserDetail['records'][number];
export type Invoice = BillingUserDetail['invoices'][number];

/** GET /admin/billing/user?userId: the plan, the month in progress, every record and invoice. */
export async function getBillingUser(userId: string): Promise<BillingUserDetail> {
  return unwrapResults<BillingUserDetail>(
    await api.get<unknown>('/admin/billing/user', { params: { userId } }),
  );
}

export const billingUserQueryOptions = (userId: string) =>
  queryOptions({ queryKey: [...billingKey, 'user', userId], queryFn: () => getBillingUser(userId) });

export function useBillingUser(userId: string) {
  return useQuery(billingUserQueryOptions(userId));
}
