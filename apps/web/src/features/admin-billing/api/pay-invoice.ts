import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import type { Invoice } from './get-billing-user';
import { billingKey } from './get-billing-users';

/** POST /admin/billing/invoices/:id/pay {reference?}: an admin records a payment received by hand. */
export async function payInvoice({ id, reference }: { id: string; reference?: string }): Promise<Invoice> {
  const trimmed = reference?.trim();
  return unwrapResults<Invoice>(
    await api.post<unknown>(
      `/admin/billing/invoices/${encodeURIComponent(id)}/pay`,
      trimmed ? { reference: trimmed } : {},
    ),
  );
}

export function usePayInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: payInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
