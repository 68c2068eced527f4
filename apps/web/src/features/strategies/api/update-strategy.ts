import { strategySchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseResults } from '../../../lib/api-client';
import type { StrategyBody } from './create-strategy';
import { strategiesQueryOptions } from './get-strategies';

export type UpdateStrategyBody = Partial<StrategyBody> & { rotateWebhookSecret?: boolean };

export async function updateStrategy({ id, body }: { id: string; body: UpdateStrategyBody }) {
  return parseResults(
    strategySchema,
    await api.put<unknown>(`/api/strategies/${encodeURIComponent(id)}`, body),
  );
}

export function useUpdateStrategy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStrategy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: strategiesQueryOptions().queryKey }),
  });
}

/** A new webhook secret: alerts still sending the old one are refused from then on. */
export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => updateStrategy({ id, body: { rotateWebhookSecret: true } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: strategiesQueryOptions().queryKey }),
  });
}
