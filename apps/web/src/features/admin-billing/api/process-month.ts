import type { MonthlyProcessResult } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { billingKey } from './get-billing-users';

export type { MonthlyProcessResult };

export interface Period {
  year: number;
  /** 1 to 12. */
  month: number;
}

/** POST /admin/billing/monthly/process {year, month}: idempotent, a month processed twice changes nothing. */
export async function processMonth(period: Period): Promise<MonthlyProcessResult> {
  return unwrapResults<MonthlyProcessResult>(
    await api.post<unknown>('/admin/billing/monthly/process', period),
  );
}

export function useProcessMonth() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: processMonth,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
