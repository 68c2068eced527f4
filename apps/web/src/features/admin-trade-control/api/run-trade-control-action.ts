import type { TradeControlAction, TradeControlResult } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrapResults } from '../../../lib/api-client';
import { tradeControlKey } from './get-admin-strategies';

export type { TradeControlAction, TradeControlResult };

/** The three actions of spec §2, in the order the screen offers them. */
export const TRADE_CONTROL_ACTIONS = [
  'push-to-tp',
  'close-positions',
  'cancel-orders',
] as const satisfies readonly TradeControlAction[];

/**
 * POST /admin/strategies/:id/trades/{push-to-tp|close-positions|cancel-orders}: acts on every bot
 * of the strategy and answers with what happened to each. The body is `{}` (push: each bot's
 * lowest take profit still resting).
 */
export async function runTradeControlAction({
  strategyId,
  action,
}: {
  strategyId: string;
  action: TradeControlAction;
}): Promise<TradeControlResult> {
  return unwrapResults<TradeControlResult>(
    await api.post<unknown>(`/admin/strategies/${encodeURIComponent(strategyId)}/trades/${action}`, {}),
  );
}

export function useTradeControlAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runTradeControlAction,
    // Positions, orders and figures all move: every trade-control query is refreshed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: tradeControlKey }),
  });
}
