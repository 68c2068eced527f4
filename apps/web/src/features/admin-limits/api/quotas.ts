import { type QuotaSettings, quotaSettingsSchema } from '@kairos/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';

export type { QuotaSettings };

const quotasKey = ['admin', 'quotas'] as const;

/** GET /admin/settings/quotas: what one user may hold (issue 20). */
export const quotasQueryOptions = () =>
  queryOptions({
    queryKey: quotasKey,
    queryFn: async () => parseResults(quotaSettingsSchema, await api.get<unknown>('/admin/settings/quotas')),
  });

export function useQuotas() {
  return useQuery(quotasQueryOptions());
}

/** PUT /admin/settings/quotas: the caps, all four at once. */
export function useSaveQuotas() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (quotas: QuotaSettings) =>
      parseResults(quotaSettingsSchema, await api.put<unknown>('/admin/settings/quotas', quotas)),
    onSuccess: (saved) => queryClient.setQueryData(quotasKey, saved),
  });
}
