import { type SessionInfo, sessionInfoSchema } from '@kairos/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';

export type { SessionInfo };

/** GET /auth/sessions: the user's live sign-ins, the one of this browser marked `current`. */
export async function getSessions(): Promise<SessionInfo[]> {
  return parseResults(z.array(sessionInfoSchema), await api.get<unknown>('/auth/sessions'));
}

export const sessionsQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'sessions'], queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/** DELETE /auth/sessions/{id}: signs that device out (its whole sign-in, refreshes included). */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(`/auth/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
