import type { BillingUser } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';

export type { BillingUser };

export const BILLING_PAGE_SIZE = 25;

/** Every billing query lives under this key: any billing change refreshes them all. */
export const billingKey = ['admin', 'billing'] as const;

/** GET /admin/billing/users?skip&take&active: the screen's pages become skip/take here. */
export async function getBillingUsers(page: number, active?: boolean): Promise<Page<BillingUser>> {
  const body = await api.get<unknown>('/admin/billing/users', {
    params: { skip: (page - 1) * BILLING_PAGE_SIZE, take: BILLING_PAGE_SIZE, active },
  });
  const result = unwrapPage<BillingUser>(body, { page, pageSize: BILLING_PAGE_SIZE });
  return { ...result, page, pageSize: BILLING_PAGE_SIZE };
}

export const billingUsersQueryOptions = (page: number, active?: boolean) =>
  queryOptions({
    queryKey: [...billingKey, 'users', { page, active: active ?? null }],
    queryFn: () => getBillingUsers(page, active),
    placeholderData: keepPreviousData,
  });

export function useBillingUsers(page: number, active?: boolean) {
  return useQuery(billingUsersQueryOptions(page, active));
}
