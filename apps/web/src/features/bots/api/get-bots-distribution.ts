import { botsDistributionSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';

/** How much of an account the other bots already claim (DESIGN §4). */
export type BotsDistribution = z.infer<typeof botsDistributionSchema>;

export async function getBotsDistribution(
  accountId: string,
  excludeBotId?: string,
): Promise<BotsDistribution> {
  return parseResults(
    botsDistributionSchema,
    await api.get<unknown>(`/api/trading-accounts/${encodeURIComponent(accountId)}/bots-distributions`, {
      params: { exclude_bot_id: excludeBotId },
    }),
  );
}

/** Under the accounts key: creating or deleting a bot, or an account, refreshes it too. */
export const botsDistributionQueryOptions = (accountId: string, excludeBotId?: string) =>
  queryOptions({
    queryKey: ['trading-accounts', accountId, 'bots-distributions', { excludeBotId: excludeBotId ?? null }],
    queryFn: () => getBotsDistribution(accountId, excludeBotId),
    staleTime: 0,
  });

export function useBotsDistribution(accountId: string | undefined, excludeBotId?: string) {
  return useQuery({
    ...botsDistributionQueryOptions(accountId ?? '', excludeBotId),
    enabled: Boolean(accountId),
  });
}
