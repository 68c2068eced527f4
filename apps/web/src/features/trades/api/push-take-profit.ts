import type { PushTakeProfitResponse } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tradeApi, unwrapResults } from '../../../lib/api-client';
import { tradeQueryOptions } from './get-trade';
import { tradesListKey } from './get-trades';

export interface PushTakeProfitInput {
  tradeId: string;
  /** 'tp1', 'tp2', … */
  takeProfitRole: string;
  /** The trade's bot; null for a manual trade. */
  botId: string | null;
  userId: string | null;
  /** True checks the push without trading. */
  test?: boolean;
}

/**
 * `PUT /push-to-take-profit` on the push host (spec §7, VITE_TRADE_API_URL): cancels the level's limit
 * order and sends a market order for what is left of it.
 */
export async function pushTakeProfit(input: PushTakeProfitInput): Promise<PushTakeProfitResponse> {
  const body = await tradeApi.put<PushTakeProfitResponse>('/push-to-take-profit', {
    tradeId: input.tradeId,
    takeProfitRole: input.takeProfitRole,
    botId: input.botId,
    userId: input.userId,
    test: input.test ?? false,
  });
  // A 200 that says `success: false` is a refusal too.
  unwrapResults(body);
  return body;
}

export function usePushTakeProfit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pushTakeProfit,
    // Refused or not, the ladder is read again: a refusal often means it changed meanwhile.
    onSettled: async (_data, _error, input) => {
      await queryClient.invalidateQueries({
        queryKey: tradeQueryOptions(input.tradeId).queryKey,
        exact: true,
      });
      await queryClient.invalidateQueries({ queryKey: tradesListKey });
    },
  });
}
