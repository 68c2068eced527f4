import type { invoiceCreateResultSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';
import { billingKey } from './get-billing-users';
import type { Period } from './process-month';

export type InvoiceCreateResult = z.infer<typeof invoiceCreateResultSchema>;

/**
 * POST /admin/billing/invoice/create {userId, year, month}: one live invoice per user and month;
 * asking again answers the existing one (`created: false`).
 */
export async function createInvoice(input: Period & { userId: string }): Promise<InvoiceCreateResult> {
  return unwrapResults<InvoiceCreateResult>(await api.post<unknown>('/admin/billing/invoice/create', input));
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
