import { billingRecordEventSchema, type BillingRecordEvent } from '@kairos/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';
import { billingKey } from './get-billing-users';

export type { BillingRecordEvent };

/** GET /admin/billing/records/{id}/events: the ledger events a month's record billed, with their rates. */
export async function getRecordEvents(recordId: string): Promise<BillingRecordEvent[]> {
  return parseResults(
    z.array(billingRecordEventSchema),
    await api.get<unknown>(`/admin/billing/records/${encodeURIComponent(recordId)}/events`),
  );
}

export function useRecordEvents(recordId: string | null) {
  return useQuery({
    queryKey: [...billingKey, 'record-events', recordId],
    queryFn: () => getRecordEvents(recordId!),
    enabled: recordId !== null,
  });
}
