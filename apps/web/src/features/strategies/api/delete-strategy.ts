import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { strategiesQueryOptions } from './get-strategies';

export async function deleteStrategy(id: string) {
  await api.delete<unknown>(`/api/strategies/${encodeURIComponent(id)}`);
}

export function useDeleteStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStrategy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: strategiesQueryOptions().queryKey }),
  });
}
