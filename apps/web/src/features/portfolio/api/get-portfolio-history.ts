import type { portfolioHistorySchema } from '@kairos/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, unwrapResults } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';

type PortfolioHistoryResults = z.infer<typeof portfolioHistorySchema>;
export interface PortfolioHistory extends Omit<PortfolioHistoryResults, 'currency'> {
  currency?: PortfolioHistoryResults['currency'];
}

/** Spec §7: /portfolio/history?period=1d|7d|30d|90d|1y|all. */
export const PORTFOLIO_PERIODS = ['1d', '7d', '30d', '90d', '1y', 'all'] as const;
export type PortfolioPeriod = (typeof PORTFOLIO_PERIODS)[number];
export const DEFAULT_PORTFOLIO_PERIOD: PortfolioPeriod = '30d';

export function isPortfolioPeriod(value: unknown): value is PortfolioPeriod {
  return (PORTFOLIO_PERIODS as readonly unknown[]).includes(value);
}

export async function getPortfolioHistory(period: PortfolioPeriod): Promise<PortfolioHistory> {
  const body = await api.get<unknown>('/portfolio/history', { params: { period } });
  const results = unwrapResults<Partial<PortfolioHistory> | null>(body);
  return {
    period: results?.period ?? period,
    currency: results?.currency,
    points: Array.isArray(results?.points) ? results.points : [],
  };
}

export const portfolioHistoryQueryOptions = (period: PortfolioPeriod) =>
  queryOptions({
    queryKey: ['portfolio', 'history', period],
    queryFn: () => getPortfolioHistory(period),
    placeholderData: keepPreviousData,
  });

export function usePortfolioHistory(period: PortfolioPeriod) {
  const signedIn = useSession((state) => state.token !== null);
  return useQuery({ ...portfolioHistoryQueryOptions(period), enabled: signedIn });
}
