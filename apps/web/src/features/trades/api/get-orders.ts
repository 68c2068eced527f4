import { type UserOrder, userOrderSchema } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Page, api, unwrapPage } from '../../../lib/api-client';

export type { UserOrder };

export const ORDERS_PAGE_SIZE = 50;

/** `open`: the orders still live at the exchange; `all`: their history too. */
export type OrdersScope = 'open' | 'all';

export interface OrdersFilters {
  scope?: OrdersScope;
  accountId?: string;
  page?: number;
}

export async function getOrders(filters: OrdersFilters = {}): Promise<Page<UserOrder>> {
  const page = filters.page ?? 1;
  const body = await api.get<unknown>('/api/orders', {
    params: {
      scope: filters.scope ?? 'open',
      accountId: filters.accountId,
      page,
      pageSize: ORDERS_PAGE_SIZE,
    },
  });
  return unwrapPage(body, { page, pageSize: ORDERS_PAGE_SIZE }, userOrderSchema);
}

/**
 * Under `['trades', …]`: a live `trade` or `order` event, and every trade mutation (complete among them),
 * refresh the orders as they refresh the trades.
 */
export const ordersQueryOptions = (filters: OrdersFilters = {}) =>
  queryOptions({
    queryKey: ['trades', 'list', 'orders', filters],
    queryFn: () => getOrders(filters),
    placeholderData: keepPreviousData,
  });

export function useOrders(filters: OrdersFilters = {}) {
  return useQuery(ordersQueryOptions(filters));
}
