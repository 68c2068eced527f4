import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { type AdminAlert, adminAlertsKey } from './get-alerts';

/** POST /admin/alerts/:id/dead: from queued or failed only; the server refuses other moves with a 409. */
export async function markAlertDead({ id, reason }: { id: string; reason: string }): Promise<AdminAlert> {
  return unwrapResults<AdminAlert>(
    await api.post<unknown>(`/admin/alerts/${encodeURIComponent(id)}/dead`, { reason: reason.trim() }),
  );
}

export function useMarkAlertDead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAlertDead,
    // The list, its counts and the open detail all change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminAlertsKey }),
  });
}
