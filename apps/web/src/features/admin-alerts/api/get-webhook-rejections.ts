import { adminWebhookRejectionSchema, type AdminWebhookRejection } from '@kairos/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';

export type { AdminWebhookRejection };

/** GET /admin/alerts/rejections: webhooks refused over the last `hours`, per strategy key and reason. */
export async function getWebhookRejections(hours: number): Promise<AdminWebhookRejection[]> {
  return parseResults(
    z.array(adminWebhookRejectionSchema),
    await api.get<unknown>('/admin/alerts/rejections', { params: { hours } }),
  );
}

export function useWebhookRejections(hours = 24) {
  return useQuery({
    queryKey: ['admin', 'alerts', 'rejections', hours],
    queryFn: () => getWebhookRejections(hours),
    refetchInterval: 30_000,
  });
}
