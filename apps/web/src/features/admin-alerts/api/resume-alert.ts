import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type AdminAlert, adminAlertsKey } from './get-alerts';

/** POST /admin/alerts/:id/resume: dead or failed → queued, with its retries given back. */
export async function resumeAlert(id: string): Promise<AdminAlert> {
  return unwrapResults<AdminAlert>(await api.post<unknown>(`/admin/alerts/${encodeURIComponent(id)}/resume`));
}

export function useResumeAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeAlert,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminAlertsKey }),
  });
}
