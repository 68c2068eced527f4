import type { portfolioSchema } from '@kairos/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';
import { isRow } from '../../../lib/fields';
import { useSession } from '../../../lib/session-store';

type PortfolioResults = z.infer<typeof portfolioSchema>;

/** GET /portfolio: holdings across accounts, values in the user's currency, accounts that failed. */
export interface Portfolio extends Omit<PortfolioResults, 'currency'> {
  /** Absent from an older server: the display currency is assumed. */
  currency?: PortfolioResults['currency'];
}
export type Holding = Portfolio['holdings'][number];

export function toPortfolio(results: unknown): Portfolio {
  const body: Partial<PortfolioResults> = isRow(results) ? results : {};
  const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value.filter(isRow) as T[]) : []);
  return {
    currency: isRow(body.currency) ? body.currency : undefined,
    totalValue: body.totalValue ?? '0',
    holdings: list<Holding>(body.holdings).map((holding) => ({
      ...holding,
      accounts: list(holding.accounts),
    })),
    errors: list(body.errors),
  };
}

export async function getPortfolio(): Promise<Portfolio> {
  return toPortfolio(unwrapResults(await api.get<unknown>('/portfolio')));
}

/** Live events invalidate every ['portfolio', …] entry, history included (lib/live-events.ts). */
export const portfolioQueryOptions = () => queryOptions({ queryKey: ['portfolio'], queryFn: getPortfolio });

export function usePortfolio() {
  // Logging out clears the cache while the screen is still up: it must not ask again without a token.
  const signedIn = useSession((state) => state.token !== null);
  return useQuery({ ...portfolioQueryOptions(), enabled: signedIn });
}
