import { type MyBilling, myBillingSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';

export type { MyBilling };

/** GET /api/billing: the signed-in user's plan, month in progress, months billed and invoices. */
export async function getMyBilling(): Promise<MyBilling> {
  return parseResults(myBillingSchema, await api.get<unknown>('/api/billing'));
}

export const myBillingQueryOptions = () =>
  queryOptions({ queryKey: ['billing', 'mine'], queryFn: getMyBilling });

export function useMyBilling() {
  return useQuery(myBillingQueryOptions());
}
