import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import type { Invoice } from './get-billing-user';
import { billingKey } from './get-billing-users';

/** POST /admin/billing/invoices/:id/void {reason}: an unpaid invoice is cancelled; its month is due again. */
export async function voidInvoice({ id, reason }: { id: string; reason: string }): Promise<Invoice> {
  return unwrapResults<Invoice>(
    await api.post<unknown>(`/admin/billing/invoices/${encodeURIComponent(id)}/void`, {
      reason: reason.trim(),
    }),
  );
}

export function useVoidInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: voidInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
