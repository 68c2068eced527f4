import { portfolioSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, parseResults } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';

/** GET /portfolio: holdings across accounts, values in the user's currency, accounts that failed. */
export type Portfolio = z.infer<typeof portfolioSchema>;
export type Holding = Portfolio['holdings'][number];

export async function getPortfolio(): Promise<Portfolio> {
  return parseResults(portfolioSchema, await api.get<unknown>('/portfolio'));
}

/** Live events invalidate every ['portfolio', …] entry, history included (lib/live-events.ts). */
export const portfolioQueryOptions = () => queryOptions({ queryKey: ['portfolio'], queryFn: getPortfolio });

export function usePortfolio() {
  // Logging out clears the cache while the screen is still up: it must not ask again without a token.
  const signedIn = useSession((state) => state.token !== null);
  return useQuery({ ...portfolioQueryOptions(), enabled: signedIn });
}
