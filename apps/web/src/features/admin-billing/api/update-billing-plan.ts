import type { BillingUser } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { billingKey } from './get-billing-users';

export interface PlanChanges {
  userId: string;
  /** A decimal string, 0 to 100; required when the user has no plan yet. */
  percent?: string;
  active?: boolean;
  autoCharge?: boolean;
}

/** PUT /admin/billing/user: creates the plan or changes the fields given. */
export async function updateBillingPlan(changes: PlanChanges): Promise<BillingUser> {
  return unwrapResults<BillingUser>(await api.put<unknown>('/admin/billing/user', changes));
}

export function useUpdateBillingPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBillingPlan,
    // The user's line in the list and their detail (estimated fee included) both change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
