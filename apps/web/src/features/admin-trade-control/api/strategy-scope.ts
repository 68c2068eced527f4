import type { AdminStrategy, BotActionOutcome, TradeControlScope } from '@kairos/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { tradeControlKey } from './get-admin-strategies';

export type { BotActionOutcome, TradeControlScope };
export type ScopedAction = TradeControlScope['action'];

/** GET /admin/strategies/:id/trades/scope: who and how much a push or close would reach, priced now. */
export async function getTradeControlScope(
  strategyId: string,
  action: ScopedAction,
): Promise<TradeControlScope> {
  return unwrapResults<TradeControlScope>(
    await api.get<unknown>(
      `/admin/strategies/${encodeURIComponent(strategyId)}/trades/scope?action=${encodeURIComponent(action)}`,
    ),
  );
}

export function useTradeControlScope(strategyId: string, action: ScopedAction | null) {
  return useQuery(
    queryOptions({
      queryKey: [...tradeControlKey, 'scope', strategyId, action],
      queryFn: () => getTradeControlScope(strategyId, action!),
      enabled: action !== null,
      // The figures are asked afresh each time the confirmation opens: prices move.
      staleTime: 0,
      gcTime: 0,
    }),
  );
}

/** PUT /admin/strategies/:id/status: pause (no new entries for any subscriber) or resume. */
export async function setStrategyStatus({
  strategyId,
  status,
}: {
  strategyId: string;
  status: 'active' | 'paused';
}): Promise<AdminStrategy> {
  return unwrapResults<AdminStrategy>(
    await api.put<unknown>(`/admin/strategies/${encodeURIComponent(strategyId)}/status`, { status }),
  );
}

export type BotAction = 'close-position' | 'pause';

/** POST /admin/bots/:id/{close-position|pause}: one bot of the strategy, whoever owns it. */
export async function runBotAction({
  botId,
  action,
}: {
  botId: string;
  action: BotAction;
}): Promise<BotActionOutcome> {
  return unwrapResults<BotActionOutcome>(
    await api.post<unknown>(`/admin/bots/${encodeURIComponent(botId)}/${action}`, {}),
  );
}

export function useSetStrategyStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setStrategyStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: tradeControlKey }),
  });
}

export function useBotAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runBotAction,
    onSettled: () => queryClient.invalidateQueries({ queryKey: tradeControlKey }),
  });
}
