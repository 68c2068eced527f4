import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';
import type { Row } from '../../../lib/fields';

export const BILLING_PAGE_SIZE = 25;

/** GET /admin/billing/users?skip&take&active: pages are turned into skip/take here. */
export async function getBillingUsers(page: number, active?: boolean): Promise<Page<Row>> {
  const body = await api.get<unknown>('/admin/billing/users', {
    params: { skip: (page - 1) * BILLING_PAGE_SIZE, take: BILLING_PAGE_SIZE, active },
  });
  const result = unwrapPage<Row>(body, { page, pageSize: BILLING_PAGE_SIZE });
  return { ...result, page, pageSize: BILLING_PAGE_SIZE };
}

export const billingUsersQueryOptions = (page: number, active?: boolean) =>
  queryOptions({
    queryKey: ['admin', 'billing', 'users', { page, active }],
    queryFn: () => getBillingUsers(page, active),
    placeholderData: keepPreviousData,
  });

export function useBillingUsers(page: number, active?: boolean) {
  return useQuery(billingUsersQueryOptions(page, active));
}
